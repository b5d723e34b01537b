import { useEffect, useState } from 'react'

/** A QR code of `text` (the production deeplink), drawn by the lazily loaded qrcode package. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string>()
  const [failed, setFailed] = useState<string>()
  useEffect(() => {
    let live = true
    import('qrcode')
      .then((m) => m.toDataURL(text, { errorCorrectionLevel: 'L', margin: 2, width: 240 }))
      .then((url) => live && setSrc(url))
      .catch((err: Error) => live && setFailed(err.message))
    return () => {
      live = false
    }
  }, [text])
  if (failed) return <p className="muted">The QR code could not be drawn ({failed}); copy the deeplink instead.</p>
  return src ? (
    <img className="qr" src={src} alt={label} width={240} height={240} />
  ) : (
    <div className="qr qr-pending" aria-busy="true">
      Drawing QR code…
    </div>
  )
}
