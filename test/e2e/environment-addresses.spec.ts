import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage } from './pages/guide-page.ts'

test('the environment page shows real addresses for every kind (local sandbox, bank sandbox, production), each with a copy button', async ({
  app: page,
  consoleServer,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const shell = new ConsoleApp(page)
  await new GuidePage(page).startLocalSandbox()
  await shell.open('Environments & identities')

  const local = page.getByRole('table', { name: /^Addresses of / }).first()
  const { baseUrl, authUrl, directoryUrl } = consoleServer.sandbox
  await expect(local.getByRole('row', { name: /^Resource server/ })).toContainText(baseUrl)
  await expect(local.getByRole('row', { name: /^OpenID discovery/ })).toContainText(
    `${authUrl}/.well-known/openid-configuration`,
  )
  await expect(local.getByRole('row', { name: /^Account information/ })).toContainText(
    `${baseUrl}/open-banking/v4.0/aisp`,
  )
  await expect(local.getByRole('row', { name: /^Directory/ })).toContainText(directoryUrl)
  await local.getByRole('button', { name: 'Copy Account information (AIS) URL' }).click()
  await expect(local.getByRole('button', { name: 'Copy Account information (AIS) URL' })).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl}/open-banking/v4.0/aisp`)

  // A form with several problems: one save names each of them, and nothing is saved.
  await page.getByRole('button', { name: 'New environment' }).click()
  const bad = page.getByRole('form', { name: 'New environment' })
  await bad.getByLabel('Name').fill('Broken')
  await bad.getByLabel('Kind').selectOption('bank-sandbox')
  await bad.getByLabel('Base URL', { exact: true }).fill('not an address')
  await bad.getByLabel('Auth URL', { exact: true }).fill('http://auth.bank.example')
  await bad.getByLabel('AIS path').fill('open-banking?x=1')
  await bad.getByRole('button', { name: 'Save environment' }).click()
  const notSaved = bad.getByRole('alert')
  await expect(notSaved).toContainText('3 problems; nothing was saved')
  await expect(notSaved).toContainText('base URL is not a URL')
  await expect(notSaved).toContainText('auth URL must use https')
  await expect(notSaved).toContainText('API path ais')
  await saveScreen(page, 'environment-form-every-problem')
  await bad.getByRole('button', { name: 'Cancel' }).click()
  await expect(bad).toHaveCount(0)

  // A bank sandbox: the form shows the addresses as they are typed.
  const add = async (name: string, kind: 'bank-sandbox' | 'production', base: string, auth: string) => {
    await page.getByRole('button', { name: 'New environment' }).click()
    const form = page.getByRole('form', { name: 'New environment' })
    await form.getByLabel('Name').fill(name)
    await form.getByLabel('Kind').selectOption(kind)
    const preview = form.getByRole('table', { name: 'Addresses this environment gives' })
    await expect(preview.getByRole('row', { name: /^Resource server/ })).toContainText('not set')
    await form.getByLabel('Base URL', { exact: true }).fill(base)
    await form.getByLabel('Auth URL', { exact: true }).fill(auth)
    await expect(preview.getByRole('row', { name: /^Registration/ })).toContainText(
      `${base}/dynamic-client-registration/v3.2/register`,
    )
    if (kind === 'production') await form.getByLabel('/o3 helper path (sandbox only)').fill('')
    await form.getByRole('button', { name: 'Save environment' }).click()
    return page
      .getByRole('article', { name: `Environment ${name}` })
      .getByRole('table', { name: `Addresses of ${name}` })
  }
  const bank = await add(
    'Bank sandbox',
    'bank-sandbox',
    'https://ob.sandbox.bank.example',
    'https://auth.sandbox.bank.example',
  )
  await expect(bank.getByRole('row', { name: /^Payment initiation/ })).toContainText(
    'https://ob.sandbox.bank.example/open-banking/v4.0/pisp',
  )
  await expect(bank.getByRole('row', { name: /^Sandbox \/o3 helper/ })).toContainText(
    'https://ob.sandbox.bank.example/o3/v1.0',
  )
  await expect(bank.getByRole('row', { name: /^Authorisation server/ })).toContainText(
    'https://auth.sandbox.bank.example',
  )
  const prod = await add('Production', 'production', 'https://ob.bank.example', 'https://auth.bank.example')
  await expect(prod.getByRole('row', { name: /^OpenID discovery/ })).toContainText(
    'https://auth.bank.example/.well-known/openid-configuration',
  )
  await expect(prod.getByRole('row', { name: /^Sandbox \/o3 helper/ })).toHaveCount(0)

  // No placeholder anywhere on the page, nor in the guide's bank-sandbox path.
  await expect(page.getByRole('main')).not.toContainText('{base_url}')
  await expect(page.getByRole('main')).not.toContainText('{auth_url}')
  await saveScreen(page, '50-environment-addresses')
  await shell.open('Guide')
  const other = page.getByRole('radio', { name: /^The bank's sandbox, with my own TPP identity/ })
  if (await other.count()) {
    await other.check()
    await expect(page.getByRole('main')).not.toContainText('{base_url}')
  }
})
