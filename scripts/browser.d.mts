/** Types of scripts/browser.mjs for the TypeScript that imports it (Playwright's config, the UI benchmarks). */
export declare const NO_BROWSER: string
export declare function systemBrowserPaths(platform?: NodeJS.Platform, env?: NodeJS.ProcessEnv, home?: string): string[]
export interface FoundBrowser {
  /** Undefined when Playwright's own installed Chromium is used. */
  executablePath: string | undefined
  /** Where it was found, for the log line. */
  source: string
}
export declare function findBrowser(deps?: {
  env?: NodeJS.ProcessEnv
  isExecutable?: (path: string) => boolean
  playwrightChromium?: () => Promise<string | undefined>
  platform?: NodeJS.Platform
  home?: string
}): Promise<FoundBrowser | undefined>
