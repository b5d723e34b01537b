import {
  newPayment,
  type NewPayment,
  type PaymentRecord,
} from '../../../../../src-main/local-sandbox/pis/store/payment-store.ts'

/** Payments held in a list, for the funds and posting rules that read a store's payments of an account. */
export class PaymentList {
  readonly all: PaymentRecord[] = []

  create(input: NewPayment): PaymentRecord {
    const payment = newPayment(input)
    this.all.push(payment)
    return payment
  }

  async paymentsFromAccount(accountId: string): Promise<PaymentRecord[]> {
    return this.all.filter((p) => p.debtorAccountId === accountId)
  }
}
