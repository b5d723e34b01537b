/**
 * A small, valid PDF 1.4 writer for credit card statements (`GET .../statements/{StatementId}/file`):
 * A4 pages of Helvetica (and Courier for columns) text, built by hand so the sandbox needs no PDF library. Only printable ASCII is
 * written; other characters become `?`.
 */

const PAGE_WIDTH = 595
const PAGE_HEIGHT = 842
const LINES_PER_PAGE = 52

export interface PdfLine {
  text: string
  bold?: boolean
  /** Courier, for columns that must line up. */
  mono?: boolean
  size?: number
}

function escapePdfText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)
}

function pageContent(lines: PdfLine[], pageNo: number, pageCount: number, footer: string): string {
  const ops: string[] = ['BT']
  let y = PAGE_HEIGHT - 56
  for (const line of lines) {
    const size = line.size ?? 10
    ops.push(`/${line.mono ? 'F3' : line.bold ? 'F2' : 'F1'} ${size} Tf 1 0 0 1 50 ${y} Tm (${escapePdfText(line.text)}) Tj`)
    y -= size + 4
  }
  ops.push(`/F1 8 Tf 1 0 0 1 50 30 Tm (${escapePdfText(`${footer}   Page ${pageNo} of ${pageCount}`)}) Tj`, 'ET')
  return ops.join('\n')
}

/** Renders `lines` onto as many pages as they need; `footer` is printed at the bottom of every page. */
export function renderPdf(lines: PdfLine[], footer: string, title: string): Buffer {
  const pages: PdfLine[][] = []
  for (let i = 0; i < lines.length; i += LINES_PER_PAGE) pages.push(lines.slice(i, i + LINES_PER_PAGE))
  if (pages.length === 0) pages.push([])
  const objects: string[] = []
  const pageObjectIds = pages.map((_, i) => 7 + i * 2)
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>'
  objects[2] = `<< /Type /Pages /Kids [${pageObjectIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>'
  objects[5] = `<< /Title (${escapePdfText(title)}) /Producer (OB Console local sandbox) >>`
  objects[6] = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>'
  pages.forEach((pageLines, i) => {
    const content = pageContent(pageLines, i + 1, pages.length, footer)
    objects[7 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 6 0 R >> >> /Contents ${8 + i * 2} 0 R >>`
    objects[8 + i * 2] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`
  })
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'
  const offsets: number[] = []
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1')
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`
  }
  const xrefAt = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
