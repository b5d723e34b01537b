import { AisStartForm } from './ais-start-form.tsx'
import type { FlowStartInitial } from './flow-start-common.tsx'
import { PisStartForm } from './pis-start-form.tsx'

/**
 * Starts an AIS or PIS flow: environment, client, how the PSU's return is captured, and the consent itself.
 * `initial`: the environment and client chosen to begin with (a new consent in place of an expired one).
 */
export function FlowStartForm({
  kind,
  initial,
  onStarted,
}: {
  kind: 'ais' | 'pis'
  initial?: FlowStartInitial
  onStarted?: () => void
}) {
  return kind === 'ais' ? (
    <AisStartForm initial={initial} onStarted={onStarted} />
  ) : (
    <PisStartForm initial={initial} onStarted={onStarted} />
  )
}
