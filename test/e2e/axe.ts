/**
 * axe-core as the end-to-end tests run it (@axe-core/playwright): WCAG 2.2 AA, failing on any serious or
 * critical violation, plus a few rules outside those tags that a person trips on.
 */
import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from '@playwright/test'

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
/**
 * Rules outside those tags that a person trips on, failed on whatever axe calls their impact: an accessible
 * name that does not contain the visible label (experimental in axe, WCAG 2.5.3), headings that skip a level,
 * one h1 per view, landmarks that cannot be told apart.
 */
const ALSO = ['label-content-name-mismatch', 'heading-order', 'page-has-heading-one', 'landmark-unique']

/** Each violation found on the page as it is now, with its elements (empty: none). */
export async function violations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .options({
      runOnly: { type: 'tag', values: WCAG_22_AA },
      rules: Object.fromEntries(ALSO.map((id) => [id, { enabled: true }])),
    })
    .analyze()
  return violations
    .filter(
      (v) =>
        ALSO.includes(v.id) ||
        ((v.impact === 'serious' || v.impact === 'critical') && v.tags.some((t) => WCAG_22_AA.includes(t))),
    )
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.nodes.length}): ${v.help}\n      ${v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`)
          .join('\n      ')}`,
    )
}
