import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage } from './pages/guide-page.ts'
import { RegistrationPage } from './pages/registration-page.ts'

test('the registration builder flags a wrong claim as you type and sends only once it is fixed', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await guide.startLocalSandbox()
  await guide.getIdentity()

  await shell.open('Registration')
  const reg = new RegistrationPage(page)
  await reg.expectAllPass()
  await expect(reg.preview()).toContainText('Signed PS256 with kid')

  // A wrong signing algorithm: the claim's check fails next to the field, the JWT is not signed, send is off.
  await reg.claim('token_endpoint_auth_signing_alg').fill('RS256')
  await expect(reg.claimMessage('token_endpoint_auth_signing_alg')).toContainText('expected PS256, got RS256')
  await expect(reg.send()).toBeDisabled()
  await expect(reg.status()).toContainText('fix token_endpoint_auth_signing_alg')
  await expect(reg.preview().getByLabel('Signature status')).toContainText('Not signed')
  // A wrong audience too.
  await reg.claim('aud').fill('https://auth.bank.example/extra/path')
  await expect(reg.claimMessage('aud')).toContainText('got https://auth.bank.example/extra/path')
  await expect(reg.status()).toContainText('2 claims would be refused')
  await saveScreen(page, '08-registration-wrong-claims')

  await reg.claim('token_endpoint_auth_signing_alg').fill('PS256')
  await reg.claim('aud').clear()
  await reg.expectAllPass()
  await reg.send().click()
  const result = page.getByRole('region', { name: 'Registration result' })
  await expect(result).toContainText('Registered: client')
  const clientId = /client (\S+)/.exec((await result.getByRole('heading').textContent()) ?? '')![1]!
  const clients = page.getByRole('table', { name: 'Registered clients' })
  await expect(clients).toContainText(clientId)
  await saveScreen(page, '09-registration-sent')

  // Manage it at the bank: read (GET), then delete (DELETE).
  await clients.getByRole('button', { name: `Read client ${clientId} at the bank` }).click()
  await expect(result.getByRole('button', { name: /^Open exchange GET .*register/ })).toBeVisible()
  await clients.getByRole('button', { name: `Delete client ${clientId}` }).click()
  await page
    .getByRole('alertdialog', { name: `Confirm deleting client ${clientId}` })
    .getByRole('button', { name: 'Delete it' })
    .click()
  await expect(page.getByRole('table', { name: 'Registered clients' })).toHaveCount(0)
})
