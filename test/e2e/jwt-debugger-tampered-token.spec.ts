import { expect, saveScreen, test } from './fixtures.ts'
import { ConsoleApp } from './pages/console-app.ts'
import { GuidePage } from './pages/guide-page.ts'
import { JwtDebuggerPage } from './pages/jwt-page.ts'
import { RegistrationPage } from './pages/registration-page.ts'

/** Changes one claim without re-signing: the signature no longer matches. */
function tamper(jwt: string): string {
  const [h, p, s] = jwt.split('.')
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>
  claims.scope = 'openid accounts payments fundsconfirmations'
  return [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.')
}

test('the JWT debugger verifies a signed registration JWT and rejects the same token once tampered', async ({
  app: page,
}) => {
  const shell = new ConsoleApp(page)
  const guide = new GuidePage(page)
  await guide.startLocalSandbox()
  await guide.getIdentity()
  await shell.open('Registration')
  const reg = new RegistrationPage(page)
  await reg.expectAllPass()
  const jwt = await page.getByLabel(/^Signed JWT/).inputValue()
  await page.getByRole('button', { name: 'Open in JWT debugger' }).click()
  await expect(shell.nav('JWT debugger')).toHaveAttribute('aria-current', 'page')

  const dbg = new JwtDebuggerPage(page)
  await expect(dbg.token()).toHaveValue(jwt)
  await expect(dbg.decoded()).toContainText('Signature: present')
  await expect(dbg.decoded().getByLabel('Times')).toContainText('iat')
  await dbg.keySource(/signing key/).check()
  await page.getByLabel('Rules').selectOption('registration')
  await dbg.verify().click()
  await expect(dbg.check('signature')).toHaveAttribute('data-pass', 'true')

  await dbg.token().fill(tamper(jwt))
  await expect(dbg.decoded()).toContainText('fundsconfirmations')
  await dbg.verify().click()
  await expect(dbg.check('signature')).toHaveAttribute('data-pass', 'false')
  await expect(dbg.check('signature')).toContainText('does not match')
  await expect(dbg.check('scope')).toHaveAttribute('data-pass', 'false')
  await saveScreen(page, '11-jwt-debugger-tampered')
})
