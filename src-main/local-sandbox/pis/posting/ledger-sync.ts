import type { AisBank } from '../../ais/ais-bank.ts'
import type { SandboxStore } from '../../store/sandbox-store.ts'
import { postPayment } from './post-payment.ts'

/**
 * For a store other instances share: a function that brings the AIS ledgers of some accounts up to date
 * with the payments made from them through any instance, before AIS reads them. One look at the store per
 * call (how many payments each account is the debtor of); only an account whose count moved since this
 * instance last read it has its payments read and posted (posting is once per payment id, so a payment this
 * instance made itself, already posted, is not posted twice).
 */
export function ledgerSync(
  store: Pick<SandboxStore, 'paymentCounts' | 'paymentsFromAccount'>,
  bank: AisBank,
): (accountIds: readonly string[]) => Promise<void> {
  /** Per account, the payment count as of this instance's last read of its payments. */
  const known = new Map<string, number>()
  return async (accountIds) => {
    if (accountIds.length === 0) return
    const counts = await store.paymentCounts(accountIds)
    const moved = accountIds.filter((id) => (counts.get(id) ?? 0) !== (known.get(id) ?? 0))
    await Promise.all(
      moved.map(async (id) => {
        const payments = await store.paymentsFromAccount(id)
        for (const payment of payments) postPayment(bank, payment)
        known.set(id, payments.length)
      }),
    )
  }
}
