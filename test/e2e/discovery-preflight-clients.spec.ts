import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage } from './pages/guide-page.ts'
import { RegistrationPage } from './pages/registration-page.ts'

test('discovery laid out and checked; a registration failing the pre-flight held until "send anyway" shows the bank\'s refusal; clients with one current', async ({
  app: page,
  consoleServer,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await guide.startLocalSandbox()
  await guide.getIdentity()

  // The viewer: issuer, endpoints, capabilities, and the environment checked against them.
  await shell.open('Discovery')
  await page.getByRole('form', { name: 'Discovery to read' }).getByRole('button', { name: 'Read discovery' }).click()
  const doc = page.getByRole('region', { name: 'Discovery document' })
  await expect(doc.getByRole('heading', { name: /^Issuer/ })).toContainText(consoleServer.sandbox.authUrl)
  const endpoints = doc.getByRole('table', { name: 'Endpoints' })
  for (const e of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri'])
    await expect(endpoints).toContainText(e)
  await expect(doc.getByLabel('Token endpoint auth methods')).toContainText('private_key_jwt')
  await expect(doc.getByLabel('request_object_signing_alg_values_supported')).toContainText('PS256')
  const capability = page.getByRole('region', { name: 'Capability check' })
  await expect(capability.getByRole('status')).toHaveText(
    'The bank advertises everything the environment (and the client) uses.',
  )
  await saveScreen(page, '23-discovery')

  // The builder: an algorithm the bank does not advertise is named by the pre-flight; Send stays off.
  await shell.open('Registration')
  const reg = new RegistrationPage(page)
  await reg.expectAllPass()
  await reg.claim('request_object_signing_alg').fill('RS256')
  await expect(reg.claimMessage('request_object_signing_alg')).toContainText('got RS256')
  await expect(reg.send()).toBeDisabled()
  const preflight = page.getByRole('region', { name: 'Pre-flight against discovery' })
  await preflight.getByRole('button', { name: 'Check against discovery' }).click()
  await expect(preflight.getByRole('status')).toContainText(
    'does not advertise one thing this registration asks for: request_object_signing_alg',
  )
  await expect(preflight.locator('li[data-check="registered request_object_signing_alg"]')).toContainText(
    '["PS256","none"]',
  )
  // Send anyway, confirmed: the bank's own refusal is shown.
  await reg.form().getByRole('button', { name: 'Send anyway…' }).click()
  const question = page.getByRole('alertdialog', { name: 'Confirm sending the registration anyway' })
  await expect(question).toContainText('fails the claim checks')
  await question.getByRole('button', { name: 'Send it anyway' }).click()
  const refusal = reg.form().getByRole('alert')
  await expect(refusal).toHaveAttribute('data-code', 'DCR_ERROR')
  await expect(refusal).toContainText('request_object_signing_alg')
  await saveScreen(page, '24-registration-send-anyway-refused')

  // Fixed: the send runs the pre-flight, passes, and the client is registered and current.
  await reg.claim('request_object_signing_alg').fill('PS256')
  await reg.expectAllPass()
  await reg.send().click()
  await expect(preflight.getByRole('status')).toHaveText(/Discovery advertises everything this registration asks for/)
  const result = page.getByRole('region', { name: 'Registration result' })
  await expect(result).toContainText('Registered: client')
  const first = /client (\S+)/.exec((await result.getByRole('heading').textContent()) ?? '')![1]!
  const clients = page.getByRole('table', { name: 'Registered clients' })
  await expect(clients.getByLabel(`Client ${first} is current`)).toBeVisible()

  // A second client becomes current; the first is made current again.
  await reg.send().click()
  await expect(result.getByRole('heading')).not.toContainText(first)
  const second = /client (\S+)/.exec((await result.getByRole('heading').textContent()) ?? '')![1]!
  await expect(clients.getByLabel(`Client ${second} is current`)).toBeVisible()
  await expect(clients.getByLabel(`Client ${first} is current`)).toHaveCount(0)
  await clients.getByRole('button', { name: `Make client ${first} current` }).click()
  await expect(clients.getByLabel(`Client ${first} is current`)).toBeVisible()
  await expect(clients.locator('tr[aria-current="true"]')).toHaveCount(1)

  // GET and PUT at the bank with the registration access token, then DELETE the current client.
  await clients.getByRole('button', { name: `Read client ${first} at the bank` }).click()
  await expect(result.getByRole('button', { name: /^Open exchange GET .*register/ })).toBeVisible()
  await reg.claim('scope').fill('openid accounts')
  await reg.expectAllPass()
  await clients.getByRole('button', { name: `Update client ${first} with the form` }).click()
  await expect(result.getByRole('button', { name: /^Open exchange PUT .*register/ })).toBeVisible()
  await expect(clients.locator(`tr[data-client="${first}"]`)).toContainText('openid accounts')
  await saveScreen(page, '25-clients-current')
  await clients.getByRole('button', { name: `Delete client ${first}` }).click()
  await page
    .getByRole('alertdialog', { name: `Confirm deleting client ${first}` })
    .getByRole('button', { name: 'Delete it' })
    .click()
  await expect(clients.locator(`tr[data-client="${first}"]`)).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Clients of the environment' })).toContainText(
    'No client is marked current',
  )

  // The sandbox's o3 download of the remaining client, imported: the addresses become an environment; the
  // client stays with the local sandbox, where it is registered.
  await shell.open('Environments & identities')
  await page.getByRole('button', { name: 'Import from Postman' }).click()
  const form = page.getByRole('form', { name: 'Import a Postman environment' })
  await form.getByLabel("or the sandbox's o3 download for client").selectOption(second)
  await form.getByRole('button', { name: 'Download' }).click()
  await expect(form.getByLabel('or its text')).toHaveValue(new RegExp(`"value": "${second}"`))
  await form.getByLabel('Environment name').fill('Local sandbox via o3')
  await form.getByLabel("Identity of the file's client").selectOption({ index: 1 })
  await form.getByRole('button', { name: 'Import' }).click()
  await expect(form.getByRole('status')).toContainText(`Client ${second} is already kept for another environment`)
  await expect(page.getByRole('article', { name: 'Environment Local sandbox via o3' })).toContainText(
    consoleServer.sandbox.authUrl,
  )
})

test('a Postman environment file becomes an environment, its client kept for the identity chosen', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  await shell.open('Environments & identities')
  await page.getByRole('button', { name: 'Import from Postman' }).click()
  const form = page.getByRole('form', { name: 'Import a Postman environment' })
  await form.getByLabel('or its text').fill(
    JSON.stringify({
      name: 'Bank sandbox (Postman)',
      values: [
        { key: 'base_url', value: 'https://ob.sandbox.bank.example' },
        { key: 'auth_url', value: 'https://auth.sandbox.bank.example' },
        { key: 'pisBasePath', value: 'https://ob.sandbox.bank.example/open-banking/v4.0/pisp' },
        { key: 'client_id', value: 'postman-client-1' },
      ],
    }),
  )
  await form.getByRole('button', { name: 'Import' }).click()
  await expect(form.getByRole('status')).toContainText(
    'Imported Bank sandbox (Postman): https://ob.sandbox.bank.example',
  )
  await expect(form.getByRole('status')).toContainText('Client postman-client-1 not kept')
  const card = page.getByRole('article', { name: 'Environment Bank sandbox (Postman)' })
  await expect(card).toContainText('https://auth.sandbox.bank.example')
  await expect(card).toContainText('off (server certificate not verified)')

  // With the identity it was registered with, the client is kept and marked current.
  await page.getByRole('button', { name: 'New identity' }).click()
  const identity = page.getByRole('form', { name: 'New TPP identity' })
  await identity.getByLabel('Identity name').fill('Postman identity')
  await identity.getByRole('button', { name: 'Create identity' }).click()
  await form.getByLabel("Identity of the file's client").selectOption({ label: 'Postman identity' })
  await form.getByRole('button', { name: 'Import' }).click()
  await expect(form.getByRole('status')).toContainText('client postman-client-1 (current)')
  await expect(page.getByRole('article', { name: 'Environment Bank sandbox (Postman)' })).toHaveCount(1)
  await expect(card).toContainText('Postman identity')

  await form.getByLabel('or its text').fill('{"values": 1}')
  await form.getByRole('button', { name: 'Import' }).click()
  await expect(form.getByRole('alert')).toContainText('is not a Postman environment')
})
