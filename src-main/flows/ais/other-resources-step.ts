import type { ResourceOutcomeDto } from '../../contract/ais-data.ts'
import { obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import { consentIdOf } from '../common/consent-journey.ts'
import type { StepDefinition } from '../step-machine.ts'
import { AIS_STEP_TEXT, AIS_STEPS, type AisFlowContext, type ResourcesOutput } from './ais-context.ts'
import { aisGet } from './ais-get.ts'

/** Resources read per account after the four exempt ones, and the products they are empty for (the bank's spec, section 7). */
const OTHER_RESOURCES: Array<{
  path: string
  dataKey: string
  permission: string[]
  emptyFor?: { type: string; sentence: string }
}> = [
  {
    path: 'beneficiaries',
    dataKey: 'Beneficiary',
    permission: ['ReadBeneficiariesBasic', 'ReadBeneficiariesDetail'],
    emptyFor: {
      type: 'CARD',
      sentence:
        'The bank returns no beneficiaries for a credit card: only the current account has them (product rule).',
    },
  },
  {
    path: 'direct-debits',
    dataKey: 'DirectDebit',
    permission: ['ReadDirectDebits'],
    emptyFor: {
      type: 'CARD',
      sentence:
        'The bank returns no direct debits for a credit card: only the current account has them (product rule).',
    },
  },
  {
    path: 'standing-orders',
    dataKey: 'StandingOrder',
    permission: ['ReadStandingOrdersBasic', 'ReadStandingOrdersDetail'],
    emptyFor: {
      type: 'CARD',
      sentence:
        'The bank returns no standing orders for a credit card: only the current account has them (product rule).',
    },
  },
  {
    path: 'offers',
    dataKey: 'Offer',
    permission: ['ReadOffers'],
    emptyFor: {
      type: 'CACC',
      sentence: 'The bank returns no offers for a current account: only the credit card has them (product rule).',
    },
  },
  {
    path: 'statements',
    dataKey: 'Statement',
    permission: ['ReadStatementsBasic', 'ReadStatementsDetail'],
    emptyFor: {
      type: 'CACC',
      sentence: 'The bank returns no statements for a current account: only the credit card has them (product rule).',
    },
  },
  { path: 'party', dataKey: 'Party', permission: ['ReadParty'] },
]

/** Any v4.0 resource list: the step only counts what `Data` holds under the resource's key. */
const RESOURCE_ANSWER = obAnswerShape<{ Data: Record<string, unknown> }>('a v4.0 resource list', { type: 'object' })

/**
 * Step: the resources beyond the four exempt endpoints, per account, for the permissions granted (PSU
 * present only); an empty answer the product rules explain says so.
 */
export function otherResourcesStep(): StepDefinition<AisFlowContext, ResourcesOutput> {
  return {
    ...AIS_STEP_TEXT.resources,
    requires: [AIS_STEPS.accounts],
    async run(ctx, scope) {
      if (!ctx.ais.input.psuPresent) {
        return {
          output: {},
          skipped: true,
          summary: 'skipped: only the four exempt endpoints may be called with the PSU absent',
        }
      }
      const { accounts } = scope.output(AIS_STEPS.accounts)
      const consentId = consentIdOf(scope, AIS_STEPS.consent)
      const granted = new Set(ctx.ais.input.permissions)
      const out: Record<string, ResourceOutcomeDto[]> = {}
      for (const a of accounts) {
        out[a.AccountId] = []
        for (const r of OTHER_RESOURCES) {
          if (!r.permission.some((p) => granted.has(p))) continue
          const res = await aisGet(
            ctx,
            scope,
            `/accounts/${encodeURIComponent(a.AccountId)}/${r.path}`,
            `${r.path} ${a.AccountId}`,
            null,
          )
          const data = readBankAnswer(res, {
            what: `Reading ${r.path} of ${a.AccountId}`,
            status: 200,
            shape: RESOURCE_ANSWER,
            fix: `Check consent ${consentId} has ${r.permission.join(' or ')}.`,
          }).Data[r.dataKey]
          const count = Array.isArray(data) ? data.length : data ? 1 : 0
          const ruled =
            count === 0 && r.emptyFor && r.emptyFor.type === a.AccountTypeCode ? r.emptyFor.sentence : undefined
          out[a.AccountId]!.push({
            resource: r.path,
            status: res.status,
            count,
            ...(ruled ? { emptyByProductRule: ruled } : {}),
            exchangeId: res.exchangeId,
          })
        }
      }
      const ruled = Object.values(out)
        .flat()
        .filter((o) => o.emptyByProductRule).length
      return { output: out, summary: `${Object.values(out).flat().length} reads, ${ruled} empty by product rule` }
    },
  }
}
