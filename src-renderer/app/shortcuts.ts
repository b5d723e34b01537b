/**
 * Keyboard shortcuts and the command palette's actions, as small declarative objects: a name, a label,
 * the keys (if any) and what it does. The help panel (`?`) lists them; the palette (Ctrl/Cmd+K) filters them.
 */
import { VIEW_LABELS, VIEWS } from '../store/app-slice.ts'
import type { AppState } from '../store/types.ts'
import { setThemeChoice, type ThemeChoice } from '../lib/theme.ts'

/** What an action may touch: the store's state and the page's document. */
export interface ActionContext {
  state: () => AppState
  document: Document
  openPalette: () => void
  openHelp: () => void
}

export interface ShortcutAction {
  /** Stable id, e.g. `run-step`. */
  name: string
  /** What it does, in words (the help panel and the palette show it). */
  label: string
  /** Key combinations as written: `Mod+K` (Ctrl, or Cmd on a Mac), `Shift+?`, a single key `R`. None: palette only. */
  keys: string[]
  /** Runs the action; answers false when it did not apply (nothing to do here). */
  perform: (ctx: ActionContext) => boolean | void
  /** Single keys are ignored while the user types in a field; combinations with Mod work everywhere. */
  group: 'Navigate' | 'Flows' | 'Views' | 'Look'
}

export interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}

/** Whether a key event is the written combination (`Mod+K`, `Shift+?`, `R`, `/`); letters ignore case. */
export function matchesKeys(combo: string, e: KeyLike, isMac = false): boolean {
  const parts = combo.split('+')
  const key = parts.pop()!
  const mods = new Set(parts.map((p) => p.toLowerCase()))
  const wantCtrl = mods.has('ctrl') || (mods.has('mod') && !isMac)
  const wantMeta = mods.has('meta') || (mods.has('mod') && isMac)
  if (e.ctrlKey !== wantCtrl || e.metaKey !== wantMeta || e.altKey !== mods.has('alt')) return false
  // Shift is part of punctuation like `?`: only checked when written or for letters.
  const isLetter = /^[a-z]$/i.test(key)
  if ((mods.has('shift') || isLetter) && e.shiftKey !== mods.has('shift')) return false
  return isLetter ? e.key.toLowerCase() === key.toLowerCase() : e.key === key
}

/** True when the event comes from a place where keys are text (an input, a textarea, a select, an editor). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  if (!el || typeof el.tagName !== 'string') return false
  const tag = el.tagName.toLowerCase()
  if (tag === 'textarea' || tag === 'select' || el.isContentEditable) return true
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(type)
  }
  return false
}

/** The flow the flows view shows: the active one, else the newest. */
function activeFlow(s: AppState) {
  const id = s.activeFlowId && s.flows[s.activeFlowId] ? s.activeFlowId : s.flowOrder[0]
  return id ? s.flows[id] : undefined
}

/** The step cards on the page, in order, and the one holding the focus (if any). */
function stepCards(doc: Document): { cards: HTMLElement[]; current: number } {
  const cards = [...doc.querySelectorAll<HTMLElement>('main article.step[data-step]')]
  const current = cards.findIndex((c) => c.contains(doc.activeElement))
  return { cards, current }
}

function focusCard(card: HTMLElement | undefined): boolean {
  if (!card) return false
  const button = card.querySelector<HTMLButtonElement>('.step-head button')
  ;(button ?? card).focus()
  card.scrollIntoView?.({ block: 'nearest' })
  return true
}

function runStepOf(ctx: ActionContext): boolean {
  const s = ctx.state()
  const { cards, current } = stepCards(ctx.document)
  // The step in focus on the page, else the first step not done of the active flow. A step's heading holds
  // the focus after its run (the result, landed on): from there R goes on to the next step not done.
  const onResult = ctx.document.activeElement?.matches?.('.step-head h3') === true
  const card = current >= 0 && !onResult ? cards[current] : undefined
  const flowId = card?.closest<HTMLElement>('[data-flow-id]')?.dataset.flowId ?? activeFlow(s)?.id
  const flow = flowId ? s.flows[flowId] : undefined
  if (!flow || s.flowBusy[flow.id]) return false
  const stepId = card?.dataset.step ?? flow.steps.find((st) => st.status !== 'done' && st.status !== 'skipped')?.id
  if (!stepId) return false
  void s.runStep(flow.id, stepId)
  return true
}

function focusFilter(doc: Document): boolean {
  const target =
    doc.querySelector<HTMLInputElement>('main [data-shortcut-target="filter"]') ??
    doc.querySelector<HTMLInputElement>('main [role="search"] input, main input[type="search"]')
  if (!target) return false
  target.focus()
  target.select?.()
  return true
}

function theme(choice: ThemeChoice, label: string): ShortcutAction {
  return { name: `theme-${choice}`, label, keys: [], group: 'Look', perform: () => setThemeChoice(choice) }
}

/** Every action, in the order the help panel lists them. */
export const ACTIONS: ShortcutAction[] = [
  {
    name: 'command-palette',
    label: 'Open the command palette',
    keys: ['Mod+K'],
    group: 'Navigate',
    perform: (ctx) => ctx.openPalette(),
  },
  {
    name: 'help',
    label: 'Show the keyboard shortcuts',
    keys: ['?'],
    group: 'Navigate',
    perform: (ctx) => ctx.openHelp(),
  },
  {
    name: 'filter',
    label: 'Focus the search or filter of this view',
    keys: ['/'],
    group: 'Navigate',
    perform: (ctx) => focusFilter(ctx.document),
  },
  {
    name: 'run-step',
    label: "Run the step in focus (or the flow's next step not done)",
    keys: ['R'],
    group: 'Flows',
    perform: runStepOf,
  },
  {
    name: 'next-step',
    label: 'Move to the next step of the flow',
    keys: ['J'],
    group: 'Flows',
    perform: (ctx) => {
      const { cards, current } = stepCards(ctx.document)
      return focusCard(cards[Math.min(cards.length - 1, current + 1)])
    },
  },
  {
    name: 'previous-step',
    label: 'Move to the previous step of the flow',
    keys: ['K'],
    group: 'Flows',
    perform: (ctx) => {
      const { cards, current } = stepCards(ctx.document)
      return focusCard(cards[Math.max(0, current - 1)])
    },
  },
  {
    name: 'open-inspector',
    label: 'Open the inspector',
    keys: ['I'],
    group: 'Views',
    perform: (ctx) => ctx.state().navigate('inspector'),
  },
  ...VIEWS.filter((v) => v !== 'inspector').map((v): ShortcutAction => ({
    name: `go-${v}`,
    label: `Go to ${VIEW_LABELS[v]}`,
    keys: [],
    group: 'Views',
    perform: (ctx) => ctx.state().navigate(v),
  })),
  theme('system', 'Theme: follow the operating system'),
  theme('light', 'Theme: light'),
  theme('dark', 'Theme: dark'),
]

/** The action a key event triggers, if any. Single keys do nothing while the user types. */
export function actionForKey(
  e: KeyLike & { target: EventTarget | null },
  actions: ShortcutAction[] = ACTIONS,
  isMac = false,
): ShortcutAction | undefined {
  const typing = isTyping(e.target)
  return actions.find((a) =>
    a.keys.some((k) => (!typing || /(^|\+)(mod|ctrl|meta)\+/i.test(k)) && matchesKeys(k, e, isMac)),
  )
}

/** The palette's filter: every word of the query in the label, keys or name, case-insensitive. */
export function filterActions(query: string, actions: ShortcutAction[] = ACTIONS): ShortcutAction[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return actions
  return actions.filter((a) => {
    const text = `${a.label} ${a.keys.join(' ')} ${a.name}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}

/** How a combination is written for the user: `Ctrl+K` (or `⌘K` on a Mac). */
export function keyLabel(combo: string, isMac = false): string {
  return combo.replace(/Mod\+/g, isMac ? '⌘' : 'Ctrl+')
}
