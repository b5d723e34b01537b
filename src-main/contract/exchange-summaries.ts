// The DTOs behind the inspector's exchange list: one summary row per exchange, the filter and a page of rows.
/** One row of the inspector's exchange list: enough to filter and draw, without bodies. */
export interface ExchangeSummaryDto {
  id: string
  startedAt: string
  method: string
  url: string
  /** URL path, for the path filter. */
  path: string
  status?: number
  /** Error code when the exchange failed. */
  errorCode?: string
  /** The flow that made it, when one did. */
  flowId?: string
  /**
   * True when the console made it for itself, not for the user's flows: its calls to the local sandbox's
   * admin endpoints (the conformance report, the sandbox clock). Set by the service that sends it.
   */
  byConsole?: boolean
  label?: string
  totalMs: number
  /** Response body size in bytes. */
  responseSize: number
  /**
   * How many bank-conformance violations its answer has, once checked (absent until then, and for answers
   * the lens does not check). `exchanges.onDidRecord` is sent again with it when the check ends.
   */
  violations?: number
}

export interface ExchangeFilter {
  flowId?: string
  /** `2xx`, `4xx`, `5xx`, `error` (no response), or an exact status. */
  status?: '2xx' | '3xx' | '4xx' | '5xx' | 'error' | number
  /** Substring of the path. */
  pathContains?: string
  /** Leaves out the exchanges the console made for itself (`byConsole`); the page counts them in `hiddenByConsole`. */
  hideByConsole?: boolean
  offset?: number
  limit?: number
}

export interface ExchangePage {
  total: number
  items: ExchangeSummaryDto[]
  /** With `hideByConsole`: how many exchanges the rest of the filter matches that were left out as the console's own. */
  hiddenByConsole?: number
}
