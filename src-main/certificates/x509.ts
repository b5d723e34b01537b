// The one place the certificates layer loads @peculiar/x509: `reflect-metadata` must be imported first
// (tsyringe needs it), and the library must use Node's WebCrypto.
import 'reflect-metadata'
import { webcrypto } from 'node:crypto'
import * as x509 from '@peculiar/x509'

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0])

export { x509 }
