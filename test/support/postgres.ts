import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { freeConsecutivePorts } from './free-ports.ts'

/**
 * A throwaway PostgreSQL cluster from Debian's `postgresql` package, for the tests of the PostgreSQL
 * store: `initdb` into a temporary folder (as the `postgres` user when the tests run as root: initdb
 * refuses root), started with `pg_ctl` on a free port of 127.0.0.1, stopped with `-m immediate` and
 * removed by `stop()`. Never a mock.
 */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string
  /** A new empty database on the cluster; its URL. */
  createDatabase(name: string): string
  /** Stops the cluster and removes its folder; a second call does nothing. */
  stop(): void
}

/**
 * The bin folder of an installed PostgreSQL server, found the usual ways: `PG_BIN` if set, the newest of
 * Debian's `/usr/lib/postgresql/N/bin`, `pg_config --bindir` (Homebrew, Postgres.app, other Linux
 * distributions), then the folder of an `initdb` on PATH. Undefined when none has `initdb`.
 */
export function postgresBinDir(): string | undefined {
  const hasInitdb = (dir: string | undefined) => dir !== undefined && existsSync(join(dir, 'initdb'))
  if (process.env.PG_BIN) return hasInitdb(process.env.PG_BIN) ? process.env.PG_BIN : undefined
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => hasInitdb(join(root, v, 'bin')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions[0]) return join(root, versions[0], 'bin')
  }
  const bindir = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' }).stdout?.trim()
  if (hasInitdb(bindir)) return bindir
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout?.trim()
  return onPath ? dirname(onPath) : undefined
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir()
  if (!bin)
    throw new Error(
      'no PostgreSQL server found (initdb): install it (Debian or Ubuntu: sudo apt-get install -y postgresql; macOS: brew install postgresql), or set PG_BIN to the folder that holds initdb and pg_ctl',
    )
  const asRoot = process.getuid?.() === 0
  const run = (cmd: string, args: string[]) => {
    const file = asRoot ? 'runuser' : join(bin, cmd)
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args
    const r = spawnSync(file, argv, { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`)
    return r.stdout
  }
  const root = mkdtempSync(join(tmpdir(), 'ob-pg-'))
  const dataDir = join(root, 'data')
  const socketDir = join(root, 'sock')
  mkdirSync(socketDir)
  if (asRoot) {
    // The cluster's folders belong to postgres, and the temporary folder above them is traversable.
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
    chmodSync(root, 0o755)
    chownSync(root, id('-u'), id('-g'))
    chownSync(socketDir, id('-u'), id('-g'))
  }
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const port = await freeConsecutivePorts(1)
  run('pg_ctl', [
    '-D',
    dataDir,
    '-l',
    join(root, 'postgres.log'),
    '-o',
    `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    '-w',
    'start',
  ])
  const url = (db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`
  const watchdog = stopWhenGone(process.pid, asRoot ? ['runuser', '-u', 'postgres', '--'] : [], bin, root)
  return {
    url: url('postgres'),
    createDatabase(name) {
      run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-qc', `CREATE DATABASE "${name}"`])
      return url(name)
    },
    stop() {
      watchdog.kill()
      if (!existsSync(dataDir)) return // stopped already
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop'])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}

/** Quotes a word for sh. */
const sh = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`

/**
 * A watchdog for a cluster: a detached shell that waits for `pid` to end, then stops the cluster and removes
 * its folder. A test process that ends without `stop()` (a worker the runner kills, a crash) would otherwise
 * leave a PostgreSQL server running after the tests (`pg_ctl start` runs it in the background). `stop()` ends
 * the watchdog first.
 */
function stopWhenGone(pid: number, asUser: string[], bin: string, root: string): { kill(): void } {
  const pgCtl = [...asUser, join(bin, 'pg_ctl'), '-D', join(root, 'data'), '-m', 'immediate', 'stop'].map(sh)
  const script = `while kill -0 ${pid} 2>/dev/null; do sleep 1; done; ${pgCtl.join(' ')} >/dev/null 2>&1; rm -rf ${sh(root)}`
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' })
  child.unref()
  return {
    kill() {
      if (child.exitCode === null) child.kill()
    },
  }
}
