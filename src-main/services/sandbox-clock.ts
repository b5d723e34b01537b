/**
 * The local sandbox's clock, read and moved forward from the console (`GET|POST {directory}/admin/clock`).
 * Local sandbox only: the bank's sandbox and production have no such endpoint. The sandbox's quotas
 * (PSU-absent 24-hour window), the 90-day history window, consent expiry and pending bookings follow it.
 */
import type { SandboxClockDto, SandboxClockMove } from '../contract/api.ts'
import { AppError } from '../core/app-error.ts'
import type { EnvironmentClocks } from './environment-clock.ts'
import type { EnvironmentsService } from './environments-service.ts'
import { localSandboxAdmin, type SandboxAdmin } from './sandbox-admin.ts'
import type { HttpEngine } from './ports.ts'
import { jsonObject } from '../http/json-body.ts'

const MAX_DAYS = 3650

export class SandboxClockService {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly http: HttpEngine,
    /** Learns the offset from every answer (the main side's clock of the local sandbox). */
    private readonly clocks?: EnvironmentClocks,
  ) {}

  #target(): { url: string; send: SandboxAdmin['send'] } {
    const admin = localSandboxAdmin(this.environments, this.http, 'a clock')
    return { url: admin.url('clock'), send: admin.send }
  }

  static #answer(res: { status: number; json?: unknown; text: string }, what: string): SandboxClockDto {
    const j = jsonObject(res.json)
    if (res.status !== 200 || typeof j.now !== 'string' || typeof j.offsetSeconds !== 'number') {
      throw new AppError('HTTP_ERROR', {
        what: `${what}: the local directory answered ${res.status}.`,
        cause: res.text.slice(0, 300) || 'No body.',
        fix: 'See the exchange in the inspector; restart the local sandbox if it persists.',
      })
    }
    return {
      now: j.now,
      offsetSeconds: j.offsetSeconds,
      ...(typeof j.advancedSeconds === 'number' ? { advancedSeconds: j.advancedSeconds } : {}),
    }
  }

  #learnt(answer: SandboxClockDto): SandboxClockDto {
    this.clocks?.learn(answer)
    return answer
  }

  async get(): Promise<SandboxClockDto> {
    const t = this.#target()
    const res = await t.send({
      method: 'GET',
      url: t.url,
      headers: { accept: 'application/json' },
      label: 'sandbox clock',
    })
    return this.#learnt(SandboxClockService.#answer(res, 'Reading the sandbox clock failed'))
  }

  /** Moves the sandbox clock forward by whole hours or days (it never goes back). */
  async move(input: SandboxClockMove): Promise<SandboxClockDto> {
    const hours = input?.hours ?? 0
    const days = input?.days ?? 0
    const bad = [hours, days].some((n) => typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    if (bad || hours + days === 0 || days + hours / 24 > MAX_DAYS) {
      throw new AppError('INVALID_INPUT', {
        what: `The sandbox clock cannot move by ${JSON.stringify(input)}.`,
        cause: 'It moves forward only, by whole hours or days, at most ten years at a time.',
        fix: 'Give {"hours": N} or {"days": N} with N a positive whole number.',
      })
    }
    const t = this.#target()
    const res = await t.send({
      method: 'POST',
      url: t.url,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ advanceSeconds: days * 86_400 + hours * 3_600 }),
      label: 'sandbox clock (move forward)',
    })
    return this.#learnt(SandboxClockService.#answer(res, 'Moving the sandbox clock failed'))
  }
}
