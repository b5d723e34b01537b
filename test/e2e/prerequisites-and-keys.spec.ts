// @peculiar/x509 needs reflect-metadata loaded first; parsing a CSR or certificate needs no crypto provider.
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'
import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { EnvironmentsPage } from './pages/environments-page.ts'
import { GuidePage } from './pages/guide-page.ts'
import { KeysPage, PrerequisitesPage } from './pages/tpp-tools-pages.ts'

// Built at run time: no private-key armour line in tracked files.
const PRIVATE_KEY = ['PRIVATE', 'KEY'].join(' ')
const OTHER_ORG = '0015800001041RHAAY'

test("prerequisites green for the local TPP; keys and CSRs download as public parts only; another org's certificate turns an item red", async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await guide.startLocalSandbox()
  await guide.getIdentity()

  // Every item green: the local directory is asked (organisation, SSA signature and kid).
  await shell.open('Prerequisites')
  const prereq = new PrerequisitesPage(page)
  await prereq.check()
  await expect(prereq.checklist().getByRole('status')).toHaveText('Every prerequisite is met.')
  await expect(prereq.checklist().locator('li[data-pass="false"]')).toHaveCount(0)
  for (const name of [
    'Organisation exists in the directory',
    'Software statement signed by the directory',
    "Software statement kid on the directory's JWKS",
    "Transport certificate organisation (OU) is the SSA's org_id",
    "Redirect URIs within the SSA's",
  ]) {
    await expect(prereq.item(name)).toHaveAttribute('data-pass', 'true')
  }
  await expect(prereq.checklist()).toContainText('days')
  await saveScreen(page, '20-prerequisites-green')

  // A new identity: an EC P-256 transport key and its CSR only (the key waits for the directory's certificate).
  await shell.open('Keys & certificates')
  const keys = new KeysPage(page)
  await keys.form().getByLabel('New identity name').fill('Directory upload')
  await keys.form().getByLabel('Organisation id (OU)').fill('short')
  await expect(keys.form()).toContainText('15 to 18 letters and digits')
  await expect(keys.form().getByRole('button', { name: 'Generate' })).toBeDisabled()
  await keys.form().getByLabel('Organisation id (OU)').fill(OTHER_ORG)
  await keys.form().getByLabel('Software id (CN)').fill('DirUpload1')
  await keys.form().getByLabel('Key type').selectOption('EC-P256')
  await expect(keys.form()).toContainText('The signing key must be RSA')
  await keys.form().getByLabel('Signing key and CSR (PS256)').uncheck()
  await keys.form().getByRole('button', { name: 'Generate' }).click()
  await expect(keys.parts()).toContainText('waits for the certificate the directory issues')
  const ecCsr = await keys.download('transport.csr.pem')
  expect(ecCsr.name).toBe('transport.csr.pem')
  const ec = new x509.Pkcs10CertificateRequest(ecCsr.text)
  expect(ec.subject).toBe(`C=GB, O=OpenBanking, OU=${OTHER_ORG}, CN=DirUpload1`)
  expect(ec.publicKey.algorithm.name).toBe('ECDSA')

  // Into the local identity: RSA transport and signing keys, CSRs, and a self-signed transport certificate of another org.
  await keys.form().getByLabel('Into identity').selectOption({ index: 1 })
  await keys.form().getByLabel('Organisation id (OU)').fill(OTHER_ORG)
  await keys.form().getByLabel('Software id (CN)').fill('OtherSoftware1')
  await keys.form().getByLabel('Key type').selectOption('RSA-2048')
  await keys.form().getByLabel('Signing key and CSR (PS256)').check()
  await keys
    .form()
    .getByLabel(/self-signed transport certificate/)
    .check()
  await expect(keys.form().getByRole('note')).toContainText('the new one replaces it')
  await keys.form().getByRole('button', { name: 'Generate' }).click()
  await page
    .getByRole('alertdialog', { name: 'Confirm replacing keys' })
    .getByRole('button', { name: 'Replace it' })
    .click()
  await expect(keys.parts().getByRole('heading', { level: 2 })).toContainText(`OU=${OTHER_ORG}`)
  await expect(keys.parts().getByRole('article', { name: 'Self-signed transport certificate details' })).toContainText(
    'self-signed',
  )

  const csr = await keys.download('transport.csr.pem')
  const subject = new x509.Pkcs10CertificateRequest(csr.text).subject
  expect(subject).toContain(`OU=${OTHER_ORG}`)
  expect(subject).toContain('CN=OtherSoftware1')
  const signingCsr = await keys.download('signing.csr.pem')
  expect(new x509.Pkcs10CertificateRequest(signingCsr.text).publicKey.algorithm.name).toBe('RSASSA-PKCS1-v1_5')
  const cert = await keys.download('transport.cert.pem')
  expect(new x509.X509Certificate(cert.text).subject).toBe(subject)
  const jwks = JSON.parse((await keys.download('public.jwks.json')).text) as { keys: Array<Record<string, unknown>> }
  expect(jwks.keys.map((k) => k.use)).toEqual(['tls', 'sig'])
  // Each key, the transport one included, has a kid: its RFC 7638 thumbprint.
  for (const k of jwks.keys) expect(k.kid).toMatch(/^[A-Za-z0-9_-]{43}$/)
  for (const k of jwks.keys)
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(member)
  for (const part of [csr, signingCsr, cert, ecCsr]) expect(part.text).not.toContain(PRIVATE_KEY)
  expect(await page.content()).not.toContain(PRIVATE_KEY)
  await saveScreen(page, '21-keys-generated')

  // The identity now holds another organisation's transport certificate: red, with the fix.
  await shell.open('Prerequisites')
  await prereq.check()
  const ou = prereq.item("Transport certificate organisation (OU) is the SSA's org_id")
  await expect(ou).toHaveAttribute('data-pass', 'false')
  await expect(ou).toContainText(`OU=${OTHER_ORG}`)
  await expect(ou).toContainText('use the certificate issued for this organisation')
  await expect(prereq.item("Transport certificate software (CN) is the SSA's software_id")).toHaveAttribute(
    'data-pass',
    'false',
  )
  await expect(prereq.checklist().getByRole('status')).toContainText('to fix before registering')
  await saveScreen(page, '22-prerequisites-red')
})

test('on a bank environment: what cannot be checked offline is said, the SSA checked against a directory JWKS', async ({
  app: page,
  consoleServer,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await guide.startLocalSandbox()
  await guide.getIdentity()
  await shell.open('Environments & identities')
  const { baseUrl, authUrl } = consoleServer.sandbox
  await new EnvironmentsPage(page).addBankSandbox({
    name: 'Bank sandbox',
    baseUrl,
    authUrl,
    tppName: 'Local sandbox TPP',
  })

  await shell.open('Prerequisites')
  const prereq = new PrerequisitesPage(page)
  await prereq.form().getByLabel('Environment').selectOption({ label: 'Bank sandbox' })
  await prereq.check()
  await expect(prereq.checklist().getByRole('status')).toContainText('2 could not be checked from here.')
  const org = prereq.item('Organisation exists in the directory')
  await expect(org).toHaveAttribute('data-pass', 'true')
  await expect(org).toContainText("not checked: the bank's directory has no API the console can ask offline")
  await expect(org).toContainText("Check the organisation in the directory's web interface.")
  await expect(prereq.item('Software statement signed by the directory')).toContainText('not checked')

  // The directory's JWKS by URL: the SSA's signature and kid are checked.
  await prereq.form().getByLabel('Directory JWKS (URL or JSON)').fill(`${consoleServer.sandbox.directoryUrl}/jwks`)
  await prereq.check()
  await expect(prereq.item('Software statement signed by the directory')).toContainText('valid')
  await expect(prereq.item("Software statement kid on the directory's JWKS")).toHaveAttribute('data-pass', 'true')
  await expect(prereq.checklist().getByRole('status')).toContainText('1 could not be checked from here.')

  // Another directory's keys, pasted: the kid is red with its fix.
  const otherKey = {
    kty: 'EC',
    crv: 'P-256',
    x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
    y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    kid: 'other',
  }
  await prereq
    .form()
    .getByLabel('Directory JWKS (URL or JSON)')
    .fill(JSON.stringify({ keys: [otherKey] }))
  await prereq.check()
  const kid = prereq.item("Software statement kid on the directory's JWKS")
  await expect(kid).toHaveAttribute('data-pass', 'false')
  await expect(kid).toContainText('a kid among other')
  await expect(kid).toContainText('issue a new SSA')
  await saveScreen(page, '22b-prerequisites-bank')
})
