/**
 * Which links the console's window may hand to the system browser. The renderer opens the bank's
 * authorisation page "in a tab" (for the loopback-listener capture) with an ordinary
 * `target="_blank"` link; in the desktop app no window is ever opened for it: an http(s) URL goes to
 * the user's default browser (`shell.openExternal`), anything else (file:, javascript:, data:, custom
 * schemes, malformed text) is refused, so a compromised page cannot launch local programs.
 */
export type ExternalLinkDecision = { open: true; url: string } | { open: false; reason: string }

export function decideExternalLink(raw: string): ExternalLinkDecision {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { open: false, reason: `not a URL: ${JSON.stringify(raw.slice(0, 200))}` }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { open: false, reason: `only http and https links open in the browser, not ${url.protocol}` }
  }
  if (url.username || url.password) return { open: false, reason: 'links with credentials in them are not opened' }
  return { open: true, url: url.toString() }
}
