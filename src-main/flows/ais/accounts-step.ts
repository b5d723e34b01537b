import { CODE_EXCHANGE_STEP } from '../common/authorisation.ts'
import { NON_EMPTY_STRING, obAnswerShape, readBankAnswer, valueInWords } from '../common/bank-answer.ts'
import type { StepDefinition } from '../step-machine.ts'
import { AIS_STEP_TEXT, AIS_STEPS, type AccountsOutput, type AisFlowContext } from './ais-context.ts'
import { aisGet } from './ais-get.ts'
import { bankId } from '../common/bank-id.ts'
import type { OBReadAccount6 } from '../../plumbing/ob-wire/account-info.ts'

/** The part of the account list the step reads. */
const ACCOUNTS_ANSWER = obAnswerShape<OBReadAccount6, 'Account'>('an account list (OBReadAccount6)', {
  type: 'object',
  required: ['Account'],
  properties: {
    Account: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId'],
        properties: { AccountId: NON_EMPTY_STRING, AccountTypeCode: { type: 'string' } },
      },
    },
  },
})

/** The account sub-types of Open Banking v4.0 (`OBExternalAccountSubType1Code` of account-info-openapi.json). */
const SUB_TYPES = new Set(
  'CACC CARD CASH CHAR CISH COMM CPAC LLSV LOAN MGLD MOMA NREX ODFT ONDP OTHR SACC SLRY SVGS TAXE TRAN TRAS VACC NFCA MORT WALT'.split(
    ' ',
  ),
)

/** Step: the accounts the PSU shared, which every later AIS step reads per account. */
export function accountsStep(): StepDefinition<AisFlowContext, AccountsOutput> {
  return {
    ...AIS_STEP_TEXT.accounts,
    requires: [AIS_STEPS.consent, CODE_EXCHANGE_STEP],
    async run(ctx, scope) {
      const res = await aisGet(ctx, scope, '/accounts', 'accounts', { endpoint: 'accounts' })
      const accounts = readBankAnswer(res, {
        what: 'Reading the accounts',
        status: 200,
        shape: ACCOUNTS_ANSWER,
        fix: 'Check the consent is authorised and has ReadAccountsBasic or ReadAccountsDetail.',
      }).Data.Account
      for (const a of accounts) bankId('AccountId', a.AccountId, 'an account in the account list')
      const types = accounts.map((a) => a.AccountTypeCode)
      // Each account the bank should not share, by its place in the answer (the JSON path) and its code.
      const others = types
        .map((t, i) => ({ t, path: `Data.Account[${i}].AccountTypeCode` }))
        .filter(({ t }) => t !== 'CACC' && t !== 'CARD')
        .map(
          ({ t, path }) =>
            `${path} is ${valueInWords(t)}${typeof t === 'string' && !SUB_TYPES.has(t) ? ' (not an OBExternalAccountSubType1Code)' : ''}`,
        )
      return {
        output: { accounts } satisfies AccountsOutput,
        summary: `${accounts.length} account${accounts.length === 1 ? '' : 's'}: ${types.join(', ')}`,
        checks: [
          {
            name: 'only shareable products',
            pass: others.length === 0,
            expected: 'CACC or CARD in every Data.Account[].AccountTypeCode',
            actual: others.join('; ') || types.join(', ') || 'none',
            hint: "The bank shares only the current account and the credit card through AIS: report the account's AccountTypeCode to the bank.",
          },
        ],
      }
    },
  }
}
