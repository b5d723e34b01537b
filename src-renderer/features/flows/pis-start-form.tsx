import { useState } from 'react'
import { SelectField } from '../../components/select-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import {
  DEFAULT_PAYMENT,
  paymentFieldProblems,
  paymentInitiation,
  type PaymentFields,
} from '../../domain/pis-defaults.ts'
import { PIS_SCHEMA_LIMITS } from '../../domain/pis-limits.ts'
import { FlowStartShell, useFlowTarget, useStartFlow, type FlowStartInitial } from './flow-start-common.tsx'

const CREDITOR_SCHEMES = ['UK.OBIE.SortCodeAccountNumber', 'UK.OBIE.IBAN'].map((s) => ({ value: s, label: s }))

/** The attributes a payment field adds to its input (the keyboard it asks for, its length). */
type PayExtra = Pick<React.InputHTMLAttributes<HTMLInputElement>, 'inputMode' | 'maxLength'>

type PaymentProblem = ReturnType<typeof paymentFieldProblems>[number]

/**
 * The payment's fields and their problems as the user types; `letBankCheck`: send it even with problems (a
 * developer may send a payment the console would refuse, to see the bank's own answer).
 */
function usePaymentFields() {
  const [payment, setPayment] = useState<PaymentFields>(DEFAULT_PAYMENT)
  const [letBankCheck, setLetBankCheck] = useState(false)
  const fieldProblems = paymentFieldProblems(payment)
  const problems = fieldProblems.map((p) => `${p.path}: ${p.message}`)
  const setPay = (k: keyof PaymentFields) => (value: string) => setPayment({ ...payment, [k]: value })
  return {
    payment,
    setPay,
    fieldProblems,
    problems,
    blocking: letBankCheck ? [] : problems,
    letBankCheck,
    setLetBankCheck,
  }
}

type PaymentState = ReturnType<typeof usePaymentFields>

/** The field's problems as its message, each with the JSON path it fills. */
function fieldMessage(problems: PaymentProblem[], k: keyof PaymentFields) {
  const mine = problems.filter((p) => p.field === k)
  return mine.length
    ? mine.map((p) => (
        <div key={p.message}>
          ✗ {p.message} <code className="small">{p.path}</code>
        </div>
      ))
    : undefined
}

/** A payment field, marked invalid while it has problems (its message). */
function PayField({
  pay,
  k,
  label,
  hint,
  extra = {},
}: {
  pay: PaymentState
  k: Exclude<keyof PaymentFields, 'creditorScheme'>
  label: string
  hint: string
  extra?: PayExtra
}) {
  const invalid = pay.fieldProblems.some((p) => p.field === k)
  return (
    <TextField
      label={label}
      hint={hint}
      message={fieldMessage(pay.fieldProblems, k)}
      aria-invalid={invalid}
      className={invalid ? 'invalid' : undefined}
      value={pay.payment[k]}
      onChange={pay.setPay(k)}
      spellCheck={false}
      {...extra}
    />
  )
}

/** The domestic payment's fields, checked as the user types, and the choice to send it despite problems. */
function DomesticPaymentFields({ pay }: { pay: PaymentState }) {
  const { payment } = pay
  const L = PIS_SCHEMA_LIMITS
  const sortCode = payment.creditorScheme === 'UK.OBIE.SortCodeAccountNumber'
  return (
    <fieldset>
      <legend>Domestic payment</legend>
      <p className="muted small">
        Checked as you type against the official v4.0 schema (OBWriteDomesticConsent4) and the bank's rules for domestic
        payments: sterling in pence, a 14-digit sort code and account number or a GB IBAN.
      </p>
      <div className="grid-3">
        <PayField
          pay={pay}
          k="amount"
          label="Amount"
          hint="1 to 13 digits, then at most 2 decimals for GBP"
          extra={{ inputMode: 'decimal' }}
        />
        <PayField pay={pay} k="currency" label="Currency" hint="GBP (domestic payments)" extra={{ maxLength: 3 }} />
        <PayField
          pay={pay}
          k="localInstrument"
          label="Local instrument"
          hint="UK.OBIE.FPS, UK.OBIE.BACS or UK.OBIE.CHAPS"
        />
        <SelectField
          label="Creditor scheme"
          message={fieldMessage(pay.fieldProblems, 'creditorScheme')}
          value={payment.creditorScheme}
          options={CREDITOR_SCHEMES}
          onChange={pay.setPay('creditorScheme')}
        />
        <PayField
          pay={pay}
          k="creditorIdentification"
          label="Creditor account"
          hint={
            sortCode
              ? `14 digits: sort code then account number (${payment.creditorIdentification.replace(/\D/g, '').length}/14)`
              : 'GB IBAN, e.g. GB82WEST12345698765432'
          }
          extra={{ inputMode: sortCode ? 'numeric' : undefined }}
        />
        <PayField
          pay={pay}
          k="creditorName"
          label="Creditor name"
          hint={`${payment.creditorName.length}/${L.creditorName.maxLength}`}
        />
        <PayField
          pay={pay}
          k="reference"
          label="Reference"
          hint={
            `${payment.reference.length}/${Math.min(L.creditorReference.maxLength, L.remittanceUnstructured.maxLength)}` +
            ' (sent as the creditor reference and the unstructured remittance)'
          }
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={pay.letBankCheck} onChange={(e) => pay.setLetBankCheck(e.target.checked)} />
        <span>
          Send even if the console finds problems (to see how the bank answers; it lists each error with its path on the
          consent step)
        </span>
      </label>
    </fieldset>
  )
}

/** Starts a PIS flow: the shared fields, then the domestic payment. */
export function PisStartForm({ initial, onStarted }: { initial?: FlowStartInitial; onStarted?: () => void }) {
  const target = useFlowTarget(initial)
  const pay = usePaymentFields()
  const start = useStartFlow(
    target,
    (common) => ({ kind: 'pis', ...common, ...paymentInitiation(pay.payment) }),
    onStarted,
  )
  const overridden = pay.problems.length > 0 && pay.blocking.length === 0
  return (
    <FlowStartShell
      kind="pis"
      target={target}
      problems={pay.problems}
      blocking={pay.blocking}
      notice={
        overridden ? (
          <p className="text-warn small">
            The console would refuse this payment; it is sent as it is because you asked.
          </p>
        ) : null
      }
      submitLabel="Start payment flow and run"
      start={start}
    >
      <DomesticPaymentFields pay={pay} />
    </FlowStartShell>
  )
}
