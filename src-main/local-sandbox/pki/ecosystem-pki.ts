import type { DataDirLayout } from '../data-dir.ts'
import type { EcosystemPki } from './types.ts'

// PLACEHOLDER, replaced by the PKI implementation.
export async function loadOrCreatePki(_layout: DataDirLayout): Promise<EcosystemPki> {
  throw new Error('not built yet')
}
