import type { SandboxContext } from '../context.ts'
import type { AuthorisationServer } from './types.ts'

// PLACEHOLDER, replaced by the authorisation server implementation.
export async function createAuthorisationServer(_ctx: SandboxContext): Promise<AuthorisationServer> {
  throw new Error('not built yet')
}
