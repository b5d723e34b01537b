/**
 * The colour theme: the OS's (`prefers-color-scheme`) unless the user chose light or dark, remembered in
 * localStorage. The choice is set as `data-theme` on the root element (the stylesheet reads it) and
 * announced to listeners (Monaco follows it).
 */
export type ThemeChoice = 'system' | 'light' | 'dark'
export type Theme = 'light' | 'dark'

const KEY = 'ob-console:theme'
const listeners = new Set<(theme: Theme) => void>()

function media(): MediaQueryList | undefined {
  return typeof window !== 'undefined' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined
}

export function themeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : 'system'
  } catch {
    return 'system'
  }
}

/** The theme in force: the choice, or the OS's when the choice is `system`. */
export function effectiveTheme(choice: ThemeChoice = themeChoice(), osDark = media()?.matches ?? false): Theme {
  return choice === 'system' ? (osDark ? 'dark' : 'light') : choice
}

function apply(): void {
  const choice = themeChoice()
  if (typeof document !== 'undefined') {
    if (choice === 'system') delete document.documentElement.dataset.theme
    else document.documentElement.dataset.theme = choice
  }
  const theme = effectiveTheme(choice)
  listeners.forEach((l) => l(theme))
  if (typeof document !== 'undefined') document.documentElement.dispatchEvent(new Event('ob-theme'))
}

/** Chooses the theme (`system` follows the OS again). */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, choice)
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  apply()
}

/** Calls `listener` with the theme in force whenever it changes (a choice, or the OS's scheme). */
export function onThemeChange(listener: (theme: Theme) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Applies the remembered choice once at start, and follows the OS while the choice is `system`. */
export function initTheme(): void {
  apply()
  media()?.addEventListener('change', apply)
}
