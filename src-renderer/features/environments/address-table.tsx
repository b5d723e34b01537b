import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { environmentAddresses } from '../../domain/environment-addresses.ts'
import { useApp } from '../../store/store.ts'

/** Every address of an environment resolved (never `{base_url}`), each with a copy button. */
export function AddressTable({
  env,
  label,
}: {
  env: Pick<EnvironmentDto, 'kind' | 'baseUrl' | 'authUrl' | 'apiPaths'>
  label: string
}) {
  const local = useApp((s) => s.info?.localSandbox)
  return (
    <table className="table addresses" aria-label={label}>
      <tbody>
        {environmentAddresses(env, local).map((a) => (
          <tr key={a.label}>
            <th scope="row">
              {a.label}
              {a.mtls ? <span className="muted small"> (mutual TLS)</span> : null}
            </th>
            <td>
              {a.url ? (
                <>
                  <code className="wrap">{a.url}</code>{' '}
                  <CopyButton text={a.url} ariaLabel={`Copy ${a.label} URL`} small />
                </>
              ) : (
                <span className="text-warn">
                  not set:{' '}
                  {a.from.startsWith('{auth_url}')
                    ? "add the authorisation server's https address"
                    : "add the resource server's https address"}
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
