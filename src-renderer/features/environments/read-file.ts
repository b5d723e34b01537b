/** Reading a picked file in the renderer, to hand it straight to the main side (nothing is kept). */

/** The file as UTF-8 text (PEM). */
export async function readText(file: File): Promise<string> {
  return file.text()
}

/** The file as base64 (PKCS#12). */
export async function readBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  return btoa(binary)
}

/**
 * A certificate file as PEM: a PEM file's text as it is, a binary DER file (.cer/.der) wrapped as one
 * CERTIFICATE block (base64 in lines of 64), for the main side to inspect.
 */
export async function readCertificatePem(file: File): Promise<string> {
  const text = await file.text()
  if (text.includes('-----BEGIN ')) return text
  const lines = (await readBase64(file)).match(/.{1,64}/g) ?? []
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`
}
