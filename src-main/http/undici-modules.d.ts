// Types of the undici modules `undici-parts.ts` loads one by one (undici types its index only).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici'
  const agent: typeof Agent
  export default agent
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type { Dispatcher } from 'undici'
  const dispatcher: typeof Dispatcher
  export default dispatcher
}
declare module 'undici/lib/api/index.js' {
  import type { Dispatcher } from 'undici'
  const api: Pick<Dispatcher, 'request' | 'stream' | 'pipeline' | 'upgrade' | 'connect'>
  export default api
}
declare module 'undici/lib/core/connect.js' {
  import type { buildConnector } from 'undici'
  const connect: typeof buildConnector
  export default connect
}
