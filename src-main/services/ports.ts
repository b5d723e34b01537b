import type { EnvironmentDto } from '../contract/environments.ts'
import type { ConformanceDto, ExchangeDto, FailedStepDto, SecretItemDto } from '../contract/exchange.ts'
import type { ExchangeFilter, ExchangePage, ExchangeSummaryDto } from '../contract/exchange-summaries.ts'
import type { FlowHttp } from '../flows/flow-context.ts'
import type { BodyStats } from '../http/exchange-log.ts'
import type { QuietGate } from '../http/quiet-time.ts'

/** The transport identity an HTTP client presents (mutual TLS). Main side only. */
export interface TransportIdentity {
  certPem: string
  keyPem: string
}

/**
 * The HTTP engine the services use: one client per (environment, identity) with mutual TLS, every
 * exchange in the exchange log. Implemented on the http layer (undici).
 */
export interface HttpEngine {
  forIdentity(
    environment: EnvironmentDto,
    transport: TransportIdentity | undefined,
    /** `byConsole`: the console's own requests (e.g. to the local sandbox's admin endpoints), marked so in the list. */
    meta: { tppId?: string; flowId?: string; byConsole?: boolean },
  ): FlowHttp
  exchanges: {
    list(filter: ExchangeFilter): ExchangePage
    /** The list row of one exchange (its flow, status), or undefined when the log no longer has it. */
    summary(id: string): ExchangeSummaryDto | undefined
    /** The masked view; `reveal`: refs of its secrets shown as they are in this one answer, kept nowhere. */
    get(id: string, reveal?: readonly string[]): ExchangeDto
    /** Notes that a flow step failed on an exchange: its views and its HAR entry say so from then on. */
    noteFailedStep(id: string, failed: FailedStepDto): void
    /** The exchange as recorded. Main side only: never hand it across the contract. */
    raw(id: string): ExchangeDto
    /** One secret of an exchange for its caller (never a private key); views and exports stay masked. */
    reveal(id: string, ref: string): { value: string; item: SecretItemDto }
    /** curl or HAR of one exchange, masked as its view is. */
    export(id: string, format: 'curl' | 'har', paths?: { certPath?: string; keyPath?: string; caPath?: string }): string
    /** A HAR of every exchange kept (or of those of one flow), masked as their views are. */
    har(filter?: ExchangeFilter): string
    /** The same exchanges as a Postman Collection v2.1 named `name`, masked as their views are. */
    postman(filter: ExchangeFilter, name: string): string
    clear(): void
    onRecord(listener: (summary: ExchangeSummaryDto) => void): () => void
    /** Where the kept body bytes are (raw, compressed, dropped), and whether a compression batch runs. */
    bodyStats(): BodyStats
    /** Resolves when no compression batch is running (measurements, tests). */
    idle(): Promise<void>
    /**
     * The bank-conformance verdict of an exchange once its check has ended (undefined: an exchange the lens
     * was never given, e.g. one with no answer). The CLI waits on it to print each step's violations.
     */
    conformance(id: string): Promise<ConformanceDto | undefined>
    /** The bank-conformance verdict so far ("being checked" while it runs), without waiting; undefined when the lens was never given it. */
    verdict(id: string): ConformanceDto | undefined
    /** Resolves when every conformance check started so far has ended. */
    conformanceSettled(): Promise<void>
  }
  /**
   * The pauses of the engine's requests: the lens checks in them, and the stores write in them (the flow
   * history, the console state), so no request waits for that work (`http/quiet-time.ts`).
   */
  quiet: QuietGate
  /** Closes every connection (the next request opens new ones); the exchange log and the lens stay. */
  dropConnections(): Promise<void>
  /** Closes the connections and stops the lens's worker thread. */
  close(): Promise<void>
}
