import type { SandboxContext } from '../context.ts'
import type { Directory } from './types.ts'

// PLACEHOLDER, replaced by the directory implementation.
export async function createDirectory(_ctx: Omit<SandboxContext, 'directory'>): Promise<Directory> {
  throw new Error('not built yet')
}
