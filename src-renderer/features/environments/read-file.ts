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
