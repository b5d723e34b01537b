import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SUPPORT = resolve(import.meta.dirname, '../../support/postgres.ts')

/** Whether something accepts a TCP connection on 127.0.0.1:port now. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

describe('the test PostgreSQL cluster', () => {
  it('stops when the process that started it is killed without stop() (no server is left after the tests)', async () => {
    // A test process that starts a cluster, says where, and is killed as a runner kills a worker.
    const script = `import { startTestPostgres } from ${JSON.stringify(SUPPORT)}
const pg = await startTestPostgres()
console.log(pg.url)
process.kill(process.pid, 'SIGKILL')`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    const signal = await new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, s) => done(s)))
    expect(signal).toBe('SIGKILL')
    const port = Number(/127\.0\.0\.1:(\d+)\//.exec(out)?.[1])
    expect(port).toBeGreaterThan(0)
    // The watchdog checks once a second; stopping an idle cluster takes well under a second more.
    let up = true
    for (let i = 0; i < 40 && up; i++) {
      await new Promise((r) => setTimeout(r, 250))
      up = await listening(port)
    }
    expect(up, `the cluster on port ${port} still accepts connections 10 s after its process was killed`).toBe(false)
  }, 60_000)
})
