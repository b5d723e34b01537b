/**
 * THE SLOT FOR THE CONSOLE ENGINE in P1 and P2. Until the engine can run the journey headless against a
 * sandbox, `engineJourney()` returns the reason, and the runner prints "not measured yet: <reason>"
 * instead of a figure.
 *
 * What the engine side plugs in here (replace the body of `engineJourney` and return `{ run }`):
 * `run(target)` performs, through the console's own code (src-main/services -> flows -> http + signing,
 * the composition src-main/cli/console-runtime.ts builds for the CLI and the web host), exactly the
 * journey of `journey.ts`, against the sandbox child process the bench started:
 *  - services built as console-runtime.ts does, but with a LocalSandboxPort whose start() answers
 *    `target`'s addresses and CA (not an embedded sandbox) and `target.directoryUrl` as an extra origin;
 *    untimed setup: `environments.startLocalSandbox`, `tpps.onboardLocal`;
 *  - timed: `registration.register` of a new client (private_key_jwt, PS256 request objects,
 *    `sandbox_profile: strict-headless`, scope `openid accounts payments`);
 *  - timed: the AIS flow (`flows.start` + `flows.runAll`) with `permissions: AIS_PERMISSIONS` (session.ts),
 *    `psuPresent: true`, capture `headless`, `authorisationUrlFrom: 'request-object'`; with those
 *    permissions the other-resources step makes no call;
 *  - timed: the PIS flow with `paymentConsentBody()` (journey.ts) as Initiation and Risk, capture
 *    `headless`, PS256 request object, its steps run one by one (`flows.runStep`) so that
 *    `target.beforeStatus()` (moves the sandbox clock; untimed) runs just before `payment-status`,
 *    whose first read is then final (the PIS status step otherwise waits in real time);
 *  - returns a JourneyResult: `ms`, `calls` from the exchange log (the floor makes 34; a second discovery
 *    in the PIS flow or extra polls show up here), transaction and page counts, the final payment
 *    status, the signatures it verified.
 * P1 compares it with the floor, P2 with the curl journey, measured interleaved in the same run.
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
      'the engine is not wired into the bench yet: its runtime (src-main/cli/console-runtime.ts) drives an embedded in-process sandbox, ' +
      'not the bench\'s sandbox process, and its PIS status step waits in real time; the recipe is in test/bench/journey/engine-journey.ts',
  }
}
