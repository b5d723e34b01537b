// The parts of undici the console's HTTP client is made of, each loaded from its own module. undici's index
// also loads fetch, WebSocket, the cache stores, the interceptors and the mock agents, none of which the console
// uses: about 18 ms of every command's start on the development machine. What the index does to the parts
// loaded here is done here too: the request API (`request`, `stream`, `pipeline`, `upgrade`, `connect`) on every
// dispatcher, so an Agent from this module is the Agent its type describes.
import type { Agent as UndiciAgent, buildConnector as undiciBuildConnector } from 'undici'
import agentModule from 'undici/lib/dispatcher/agent.js'
import dispatcherModule from 'undici/lib/dispatcher/dispatcher.js'
import api from 'undici/lib/api/index.js'
import connectModule from 'undici/lib/core/connect.js'

Object.assign(dispatcherModule.prototype, api)

export const Agent: typeof UndiciAgent = agentModule
export type Agent = UndiciAgent
export const buildConnector: typeof undiciBuildConnector = connectModule
