/**
 * Domestic payments ready to send: for each, a payment consent created, authorised through the sandbox's
 * headless approval (the `strict-headless` client profile, JourneySession.authorise) and its code exchanged,
 * then the payment request signed (`x-jws-signature`) with its own idempotency key. All of it before the
 * measured phase, by a few sessions in parallel; one client registration for all of them.
 */
import { floorIo } from '../journey/floor-io.ts'
import { paymentConsentBody } from '../journey/journey.ts'
import { JourneySession, type JourneyIo } from '../journey/session.ts'
import type { SandboxEndpoint } from '../lib/sandbox-process.ts'

export interface PreparedPayment {
  consentId: string
  path: string
  headers: Record<string, string>
  body: string
}

export interface AuthorisedPayments {
  /** The transport certificate the payments' tokens are bound to, and its key. */
  tls: { ca: string; cert: string; key: string }
  payments: PreparedPayment[]
  /** Wall time of the preparation, ms. */
  ms: number
}

/** `count` authorised consents on `sandbox`, each with its payment request signed; `parallel` sessions at a time. */
export async function authorisedPayments(
  sandbox: SandboxEndpoint,
  count: number,
  parallel: number,
): Promise<AuthorisedPayments> {
  const t0 = performance.now()
  const kit = await sandbox.onboard(['AISP', 'PISP'])
  const ios: JourneyIo[] = []
  try {
    const target = { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, kit }
    const sessions: JourneySession[] = []
    for (let i = 0; i < parallel; i++) {
      const io = await floorIo(sandbox.caBundlePem, kit)
      ios.push(io)
      const s = new JourneySession(io, target)
      await s.discover()
      if (i === 0) await s.register()
      else s.clientId = sessions[0]!.clientId
      sessions.push(s)
    }
    const cc = await sessions[0]!.token(
      { grant_type: 'client_credentials', scope: 'payments' },
      'client-credentials token (payments)',
    )
    const payments: PreparedPayment[] = []
    let next = 0
    await Promise.all(
      sessions.map(async (s) => {
        while (next < count) {
          next++
          const consent = paymentConsentBody()
          const consentId = (await s.signedPost('/domestic-payment-consents', cc, consent, 'domestic payment consent'))
            .Data.ConsentId as string
          const code = await s.authorise(consentId, 'openid payments')
          const token = await s.token(
            { grant_type: 'authorization_code', code, redirect_uri: s.redirectUri },
            'code exchange (PIS)',
          )
          const signed = await s.signedRequest('/domestic-payments', token, {
            Data: { ConsentId: consentId, Initiation: consent.Data.Initiation },
            Risk: consent.Risk,
          })
          payments.push({
            consentId,
            path: new URL(signed.url).pathname,
            headers: signed.headers,
            body: signed.body,
          })
        }
      }),
    )
    return {
      tls: { ca: sandbox.caBundlePem, cert: kit.transportCertPem, key: kit.transportKeyPem },
      payments,
      ms: performance.now() - t0,
    }
  } finally {
    await Promise.all(ios.map((io) => io.close()))
  }
}
