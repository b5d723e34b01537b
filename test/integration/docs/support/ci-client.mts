// Stands in for "your tests" in the CI block of docs/local-sandbox.md, "The report in CI": registers a client
// with the starter kit and calls AIS, once as v4.0 says and once without an x-fapi-interaction-id.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { TestTpp } from '../../local-sandbox/support/test-tpp.ts'

const temp = process.env.RUNNER_TEMP!
const kitDir = join(temp, 'tpp-kit')
const addresses = JSON.parse(readFileSync(join(temp, 'sandbox.out'), 'utf8').split('\n')[0]!)
const manifest = JSON.parse(readFileSync(join(kitDir, 'manifest.json'), 'utf8'))
const read = (f: string) => readFileSync(join(kitDir, f), 'utf8')
const tpp = new TestTpp(
  { ...addresses, caBundlePem: read('ca-bundle.pem') },
  {
    orgId: manifest.orgId,
    softwareId: manifest.softwareId,
    ssa: read('ssa.jwt').trim(),
    signingKid: manifest.signingKid,
    signingKeyPem: read('signing.key'),
    transportCertPem: read('transport.pem'),
    transportKeyPem: read('transport.key'),
    redirectUris: manifest.redirectUris,
  },
)
const client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } })
const cc = await tpp.clientCredentials(client, 'accounts')
const body = JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} })
const url = `${addresses.baseUrl}/open-banking/v4.0/aisp/account-access-consents`
for (const id of [randomUUID(), undefined]) {
  const headers = {
    authorization: `Bearer ${cc}`,
    'content-type': 'application/json',
    ...(id ? { 'x-fapi-interaction-id': id } : {}),
  }
  const res = await tpp.call('POST', url, { headers, body })
  if (res.status !== 201) throw new Error(res.text)
}
writeFileSync(join(temp, 'client-id'), client.clientId)
await tpp.close()
