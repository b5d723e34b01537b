import { chmodSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export interface DataDirLayout {
  root: string
  /** Encrypted secrets (private keys, client secrets) and the master key file. */
  secrets: string
  /** Non-secret state: environments, identities' public parts, registrations. */
  store: string
  logs: string
}

/**
 * The console's data directory: `$OB_CONSOLE_DATA_DIR` when set, else the platform's place for
 * application data (`$XDG_DATA_HOME/ob-console` or `~/.local/share/ob-console` on Linux,
 * `~/Library/Application Support/ob-console` on macOS, `%APPDATA%\ob-console` on Windows).
 */
export function appDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.OB_CONSOLE_DATA_DIR) return env.OB_CONSOLE_DATA_DIR
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'ob-console')
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'ob-console')
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'ob-console')
}

/**
 * Creates (if needed) the data directory and its sub-directories, new ones readable by the user alone
 * (0700). The secrets directory is forced to 0700 even when it already existed.
 */
export function ensureDataDir(root: string = appDataDir()): DataDirLayout {
  const layout: DataDirLayout = {
    root,
    secrets: join(root, 'secrets'),
    store: join(root, 'store'),
    logs: join(root, 'logs'),
  }
  for (const dir of [layout.root, layout.secrets, layout.store, layout.logs]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  }
  if (process.platform !== 'win32') chmodSync(layout.secrets, 0o700)
  return layout
}
