/**
 * THE SLOT FOR THE CONSOLE ENGINE in P1 and P2. Until the engine can run the journey headless against a
 * sandbox, `engineJourney()` returns the reason, and the runner prints "not measured yet: <reason>"
 * instead of a figure.
 *
 * What the engine side plugs in here (replace the body of `engineJourney` and return `{ run }`):
 * `run(target)` performs, through the console's own code (src-main/services -> flows -> http + signing,
 * the same composition the desktop app and the web host use), exactly the journey of `journey.ts`:
 *  - registers a new client for `target.kit` (DCR 3.2, private_key_jwt, `sandbox_profile: strict-headless`,
 *    scope `openid accounts payments`, redirect URI `target.kit.redirectUris[0]`);
 *  - runs the AIS flow with `permissions: AIS_PERMISSIONS` (session.ts), `psuPresent: true`
 *    (x-fapi-customer-ip-address PSU_IP), capture `headless`, authorisation URL from a PS256 request
 *    object: discovery, client credentials, consent, authorisation, ID token checks, code exchange,
 *    accounts, balances, every transactions page; with those permissions the other-resources step makes
 *    no call;
 *  - runs the PIS flow with `paymentConsentBody()` (journey.ts) as Initiation and Risk, capture
 *    `headless`, PS256 request object; its status step's `sleep(ms)` must call `target.beforeStatus()`
 *    (moves the sandbox clock) instead of waiting, and that time is left out of `ms`;
 *  - returns a JourneyResult: `ms` wall time, `calls` from the exchange log (the floor makes 34; the
 *    engine's second discovery in the PIS flow and extra status polls show up here), the transaction and
 *    page counts, the final payment status, and how many signatures it verified.
 * The engine must keep its agents per identity like the floor does per journey (one per origin,
 * keep-alive); P1 compares it with the floor, P2 with the curl journey, both measured in the same run.
 */
import type { JourneyResult, JourneyTarget } from './journey.ts'

export interface EngineJourneyTarget extends JourneyTarget {
  directoryUrl: string
  caBundlePem: string
  caBundlePath: string
}

export type EngineJourney = { run(target: EngineJourneyTarget): Promise<JourneyResult> } | { notMeasured: string }

/** The engine's journey runner, or why it cannot run yet. */
export async function engineJourney(): Promise<EngineJourney> {
  return {
    notMeasured:
      'the console engine has no headless entry point that runs registration and the AIS and PIS flows against a sandbox yet ' +
      '(src-main/http, which FlowHttp needs, does not exist, and nothing builds a FlowContext for a registered sandbox client); ' +
      'plug it into test/bench/journey/engine-journey.ts',
  }
}
