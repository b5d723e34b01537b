// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import {
  ACTIONS,
  actionForKey,
  filterActions,
  isTyping,
  keyLabel,
  matchesKeys,
  type ActionContext,
} from '../../../../src-renderer/app/shortcuts.ts'
import type { AppState } from '../../../../src-renderer/store/types.ts'

const key = (
  k: string,
  mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {},
  target: EventTarget | null = document.body,
) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods, target })

describe('shortcut keys', () => {
  it('matches Mod+K as Ctrl+K, or Cmd+K on a Mac, and nothing else', () => {
    expect(matchesKeys('Mod+K', key('k', { ctrlKey: true }))).toBe(true)
    expect(matchesKeys('Mod+K', key('K', { ctrlKey: true }))).toBe(true)
    expect(matchesKeys('Mod+K', key('k', { metaKey: true }))).toBe(false)
    expect(matchesKeys('Mod+K', key('k', { metaKey: true }), true)).toBe(true)
    expect(matchesKeys('Mod+K', key('k'))).toBe(false)
    expect(matchesKeys('Mod+K', key('k', { ctrlKey: true, altKey: true }))).toBe(false)
  })

  it('matches single keys without modifiers; ? whatever shift says; letters not with shift', () => {
    expect(matchesKeys('R', key('r'))).toBe(true)
    expect(matchesKeys('R', key('R', { shiftKey: true }))).toBe(false)
    expect(matchesKeys('R', key('r', { ctrlKey: true }))).toBe(false)
    expect(matchesKeys('?', key('?', { shiftKey: true }))).toBe(true)
    expect(matchesKeys('/', key('/'))).toBe(true)
  })

  it('ignores single keys while the user types in a field, but not Mod+K', () => {
    const input = document.createElement('input')
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' })
    expect(isTyping(input)).toBe(true)
    expect(isTyping(document.createElement('textarea'))).toBe(true)
    expect(isTyping(document.createElement('select'))).toBe(true)
    expect(isTyping(checkbox)).toBe(false)
    expect(isTyping(document.createElement('button'))).toBe(false)
    expect(actionForKey(key('r', {}, input))).toBeUndefined()
    expect(actionForKey(key('r', {}, checkbox))?.name).toBe('run-step')
    expect(actionForKey(key('k', { ctrlKey: true }, input))?.name).toBe('command-palette')
    expect(actionForKey(key('?', { shiftKey: true }))?.name).toBe('help')
    expect(actionForKey(key('i'))?.name).toBe('open-inspector')
    expect(actionForKey(key('x'))).toBeUndefined()
  })

  it('gives every action a unique name and no two actions the same keys', () => {
    expect(new Set(ACTIONS.map((a) => a.name)).size).toBe(ACTIONS.length)
    const keys = ACTIONS.flatMap((a) => a.keys)
    expect(new Set(keys).size).toBe(keys.length)
    for (const required of ['run-step', 'next-step', 'open-inspector', 'filter', 'command-palette', 'help'])
      expect(ACTIONS.find((a) => a.name === required)?.keys.length).toBeGreaterThan(0)
    expect(keyLabel('Mod+K')).toBe('Ctrl+K')
    expect(keyLabel('Mod+K', true)).toBe('⌘K')
  })

  it('filters the palette by every word of the query', () => {
    expect(filterActions('').length).toBe(ACTIONS.length)
    expect(filterActions('inspector').map((a) => a.name)).toEqual(['open-inspector'])
    expect(filterActions('theme dark').map((a) => a.name)).toEqual(['theme-dark'])
    expect(filterActions('go data').map((a) => a.name)).toEqual(['go-data'])
    expect(filterActions('nothing like this')).toEqual([])
  })
})

describe('shortcut actions', () => {
  function page(html: string) {
    document.body.innerHTML = `<main>${html}</main>`
  }
  function ctx(state: Partial<AppState>, calls: unknown[][] = []): ActionContext {
    const full = {
      flows: {},
      flowOrder: [],
      flowBusy: {},
      navigate: (v: string) => calls.push(['navigate', v]),
      runStep: async (f: string, s: string) => {
        calls.push(['runStep', f, s])
      },
      ...state,
    } as unknown as AppState
    return {
      state: () => full,
      document,
      openPalette: () => calls.push(['palette']),
      openHelp: () => calls.push(['help']),
    }
  }
  const act = (name: string) => ACTIONS.find((a) => a.name === name)!
  const flow = {
    id: 'f1',
    kind: 'ais',
    environmentId: 'e',
    createdAt: '',
    steps: [
      { id: 'token', status: 'done' },
      { id: 'consent', status: 'idle' },
      { id: 'authorise', status: 'idle' },
    ],
  }
  const cards =
    '<article class="step" data-flow-id="f1" data-step="token"><div class="step-head"><button>Re-run</button></div></article><article class="step" data-flow-id="f1" data-step="consent"><div class="step-head"><button>Run</button></div></article>'

  it("run-step runs the flow's first step not done, or the step in focus", () => {
    page(cards)
    const calls: unknown[][] = []
    const c = ctx({ flows: { f1: flow } as never, flowOrder: ['f1'], activeFlowId: 'f1' }, calls)
    expect(act('run-step').perform(c)).toBe(true)
    document.querySelector<HTMLButtonElement>('[data-step="token"] button')!.focus()
    act('run-step').perform(c)
    expect(calls).toEqual([
      ['runStep', 'f1', 'consent'],
      ['runStep', 'f1', 'token'],
    ])
    expect(
      act('run-step').perform(ctx({ flows: { f1: flow } as never, flowOrder: ['f1'], flowBusy: { f1: true } })),
    ).toBe(false)
  })

  it('run-step goes on to the next step not done from the heading a run left the focus on', () => {
    page(cards.replace('<div class="step-head">', '<div class="step-head"><h3 tabindex="-1">Token</h3>'))
    const calls: unknown[][] = []
    document.querySelector<HTMLElement>('[data-step="token"] h3')!.focus()
    act('run-step').perform(ctx({ flows: { f1: flow } as never, flowOrder: ['f1'], activeFlowId: 'f1' }, calls))
    expect(calls).toEqual([['runStep', 'f1', 'consent']])
  })

  it('next-step and previous-step move the focus between step cards', () => {
    page(cards)
    const c = ctx({})
    act('next-step').perform(c)
    expect(document.activeElement?.closest('[data-step]')?.getAttribute('data-step')).toBe('token')
    act('next-step').perform(c)
    expect(document.activeElement?.closest('[data-step]')?.getAttribute('data-step')).toBe('consent')
    act('next-step').perform(c)
    expect(document.activeElement?.closest('[data-step]')?.getAttribute('data-step')).toBe('consent')
    act('previous-step').perform(c)
    expect(document.activeElement?.closest('[data-step]')?.getAttribute('data-step')).toBe('token')
  })

  it("filter focuses the view's marked filter, else its first search field; open-inspector navigates", () => {
    page('<div role="search"><select></select><input id="a"></div><input id="b" data-shortcut-target="filter">')
    const calls: unknown[][] = []
    const c = ctx({}, calls)
    act('filter').perform(c)
    expect(document.activeElement?.id).toBe('b')
    page('<div role="search"><select></select><input id="a"></div>')
    act('filter').perform(c)
    expect(document.activeElement?.id).toBe('a')
    page('')
    expect(act('filter').perform(c)).toBe(false)
    act('open-inspector').perform(c)
    act('help').perform(c)
    expect(calls).toEqual([['navigate', 'inspector'], ['help']])
  })
})
