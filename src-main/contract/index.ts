// The typed contract between the renderer and the main side. Pure TypeScript, no Node types.
export * from './api.ts'
export * from './certificates.ts'
export * from './checks.ts'
export * from './diagnosis.ts'
export * from './environment.ts'
export * from './errors.ts'
export * from './exchange.ts'
export * from './jwt.ts'
