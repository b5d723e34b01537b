import type { Clock } from '../core/clock.ts'
import type { Logger } from '../core/logger.ts'
import type { HttpTimeouts } from './client-channel.ts'
import type { HttpEnvironment, HttpIdentity } from './environment.ts'
import type { ExchangeLog } from './exchange-log.ts'
import { HttpClient } from './http-client.ts'

export interface AgentPoolOptions {
  log?: ExchangeLog
  logger?: Logger
  clock?: Clock
  timeouts?: Partial<HttpTimeouts>
}

/** What makes two configurations of the same (environment, identity) different: then the client is rebuilt. */
function fingerprint(environment: HttpEnvironment, identity: HttpIdentity | undefined): string {
  return JSON.stringify([
    environment.kind,
    [...environment.origins].sort(),
    environment.trust,
    identity?.certPem ?? null,
    identity?.keyPem ?? null,
  ])
}

/**
 * One HttpClient (so one undici Agent, one keep-alive connection per origin) per (environment,
 * identity). Asking again with the same pair returns the same client; a changed CA, origin list or
 * certificate closes the old one and builds a new one.
 *
 * @example const client = pool.client(environment, identity)
 */
export class AgentPool {
  private readonly clients = new Map<string, { client: HttpClient; fingerprint: string }>()

  constructor(private readonly options: AgentPoolOptions = {}) {}

  client(environment: HttpEnvironment, identity?: HttpIdentity): HttpClient {
    const key = `${environment.id}\u0000${identity?.id ?? ''}`
    const print = fingerprint(environment, identity)
    const existing = this.clients.get(key)
    if (existing && existing.fingerprint === print) return existing.client
    if (existing) void existing.client.close()
    const client = new HttpClient({ environment, ...(identity ? { identity } : {}), ...this.options })
    this.clients.set(key, { client, fingerprint: print })
    return client
  }

  /** Closes the clients of an environment (it was edited or removed). */
  async closeEnvironment(environmentId: string): Promise<void> {
    const closing: Array<Promise<void>> = []
    for (const [key, { client }] of this.clients) {
      if (client.environment.id !== environmentId) continue
      this.clients.delete(key)
      closing.push(client.close())
    }
    await Promise.all(closing)
  }

  async closeAll(): Promise<void> {
    const all = [...this.clients.values()].map(({ client }) => client.close())
    this.clients.clear()
    await Promise.all(all)
  }

  get size(): number {
    return this.clients.size
  }
}
