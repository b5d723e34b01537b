import { NON_EMPTY_STRING, OB_AMOUNT, obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import type { OBReadBalance1 } from '../../plumbing/ob-wire/account-info.ts'
import type { StepDefinition } from '../step-machine.ts'
import { AIS_STEP_TEXT, AIS_STEPS, type AisFlowContext, type BalancesOutput } from './ais-context.ts'
import { aisGet } from './ais-get.ts'

/** The part of a balance list the step reads. */
const BALANCES_ANSWER = obAnswerShape<OBReadBalance1>('a balance list (OBReadBalance1)', {
  type: 'object',
  required: ['Balance'],
  properties: {
    Balance: {
      type: 'array',
      items: {
        type: 'object',
        required: ['Type', 'Amount'],
        properties: {
          Type: NON_EMPTY_STRING,
          Amount: OB_AMOUNT,
        },
      },
    },
  },
})

/** Step: each shared account's balances (output: the balances per account id). */
export function balancesStep(): StepDefinition<AisFlowContext, BalancesOutput> {
  return {
    ...AIS_STEP_TEXT.balances,
    requires: [AIS_STEPS.accounts],
    async run(ctx, scope) {
      const out: Record<string, OBReadBalance1['Data']['Balance']> = {}
      if (!ctx.ais.input.permissions.includes('ReadBalances'))
        return { output: out, skipped: true, summary: 'skipped: the consent has no ReadBalances permission' }
      const { accounts } = scope.output(AIS_STEPS.accounts)
      for (const a of accounts) {
        const res = await aisGet(
          ctx,
          scope,
          `/accounts/${encodeURIComponent(a.AccountId)}/balances`,
          `balances ${a.AccountId}`,
          { account: a.AccountId, endpoint: 'balances' },
        )
        out[a.AccountId] = readBankAnswer(res, {
          what: `Reading the balances of ${a.AccountId}`,
          status: 200,
          shape: BALANCES_ANSWER,
          fix: 'Check the consent has ReadBalances.',
        }).Data.Balance
      }
      const all = Object.values(out).flat()
      return {
        output: out,
        summary: `${all.length} balance${all.length === 1 ? '' : 's'}`,
        checks: [
          {
            name: 'ITAV balance type',
            pass: all.length > 0 && all.every((b) => b.Type === 'ITAV'),
            expected: 'ITAV',
            actual: [...new Set(all.map((b) => b.Type))].join(', ') || 'none',
          },
        ],
      }
    },
  }
}
