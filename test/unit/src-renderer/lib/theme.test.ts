// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { effectiveTheme, onThemeChange, setThemeChoice, themeChoice } from '../../../../src-renderer/lib/theme.ts'

afterEach(() => setThemeChoice('system'))

describe('theme', () => {
  it('follows the OS unless chosen', () => {
    expect(effectiveTheme('system', true)).toBe('dark')
    expect(effectiveTheme('system', false)).toBe('light')
    expect(effectiveTheme('light', true)).toBe('light')
    expect(effectiveTheme('dark', false)).toBe('dark')
  })

  it('remembers a choice, marks the root element, tells listeners, and forgets it for system', () => {
    const seen: string[] = []
    const off = onThemeChange((t) => seen.push(t))
    setThemeChoice('dark')
    expect(themeChoice()).toBe('dark')
    expect(document.documentElement.dataset.theme).toBe('dark')
    setThemeChoice('light')
    expect(document.documentElement.dataset.theme).toBe('light')
    setThemeChoice('system')
    expect(themeChoice()).toBe('system')
    expect(document.documentElement.dataset.theme).toBeUndefined()
    off()
    expect(seen.slice(0, 2)).toEqual(['dark', 'light'])
  })
})
