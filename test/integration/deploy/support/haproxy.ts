import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** HAProxy from the system's packages, or undefined. */
export const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((f) => existsSync(f))

/** The three origins' ports, in the order of deploy/haproxy.cfg: base_url, auth_url, directory. */
const ORIGIN_PORTS = [8443, 8444, 8445] as const

/**
 * deploy/haproxy.cfg as a test runs it outside compose: every `sandbox-N` server at 127.0.0.1 on the
 * instance's own ports (`instancePorts`, base/auth/directory), the frontends on `frontPorts` of 127.0.0.1,
 * no Docker DNS resolver. Everything else (mode, balance, checks) as written.
 */
export function localHaproxyConfig(text: string, instancePorts: number[], frontPorts: number[]): string {
  let out = text.replace(/^resolvers docker\n(?:[ \t]+.*\n)*/m, '').replace(/ resolvers docker/g, '')
  ORIGIN_PORTS.forEach((port, i) => {
    out = out
      .replace(new RegExp(`^(\\s*)bind :${port}$`, 'm'), `$1bind 127.0.0.1:${frontPorts[i]}`)
      .replace(new RegExp(`(server sandbox-\\d+) sandbox-\\d+:${port}$`, 'gm'), `$1 127.0.0.1:${instancePorts[i]}`)
  })
  return out.replace(/check port 8445/, `check port ${instancePorts[2]}`)
}

/** Runs HAProxy in the foreground on `config` (written into `dir`); stop() ends it. */
export function startHaproxy(dir: string, config: string): { child: ChildProcess; stop(): Promise<void> } {
  if (!HAPROXY) throw new Error('HAProxy is not installed (Debian or Ubuntu: sudo apt-get install -y haproxy)')
  const file = join(dir, 'haproxy.cfg')
  writeFileSync(file, config)
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: 'ignore' })
  return {
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((res) => child.once('exit', res))
      child.kill('SIGTERM')
      await exited
    },
  }
}
