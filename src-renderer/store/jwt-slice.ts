/** The JWT debugger: a pasted token decoded as you type, then verified against a chosen key and rule set. */
import type { JwtVerifyInput } from '../../src-main/contract/api.ts'
import type { CheckResult } from '../../src-main/contract/checks.ts'
import type { DecodedJwtDto } from '../../src-main/contract/jwt.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export const DECODE_DEBOUNCE_MS = 200

export interface JwtState {
  token: string
  decoded?: DecodedJwtDto
  /** The token the verification result is for (cleared when the token changes). */
  verified?: { token: string; decoded: DecodedJwtDto; checks: CheckResult[] }
}

export interface JwtSlice {
  jwt: JwtState
  setJwtToken(token: string): void
  decodeJwt(): Promise<void>
  verifyJwt(options: Omit<JwtVerifyInput, 'token'>): Promise<void>
}

export function jwtSlice({ set, get, api, timers }: SliceDeps): JwtSlice {
  const t = timers ?? {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: unknown) => clearTimeout(id as number),
  }
  let timer: unknown
  let seq = 0
  const patch = (p: Partial<JwtState>) => set((s) => ({ jwt: { ...s.jwt, ...p } }))
  return {
    jwt: { token: '' },
    setJwtToken(token) {
      patch({ token, verified: undefined })
      get().clearOp('jwt.verify')
      if (timer !== undefined) t.clearTimeout(timer)
      timer = t.setTimeout(() => {
        timer = undefined
        void get().decodeJwt()
      }, DECODE_DEBOUNCE_MS)
    },
    async decodeJwt() {
      const token = get().jwt.token.trim()
      const mine = ++seq
      if (!token) {
        patch({ decoded: undefined })
        get().clearOp('jwt.decode')
        return
      }
      const decoded = await runOp(set, 'jwt.decode', () => api.call('jwt.decode', { token }))
      if (mine === seq) patch({ decoded })
    },
    async verifyJwt(options) {
      const token = get().jwt.token.trim()
      if (!token) return
      const result = await runOp(set, 'jwt.verify', () => api.call('jwt.verify', { ...options, token }))
      if (result && get().jwt.token.trim() === token) patch({ verified: { token, ...result } })
    },
  }
}
