/**
 * The credit card statements' PDF (`GET .../statements/{StatementId}/file`), written with pdf-lib: A4 pages
 * of Helvetica (and Courier for columns) text. Only printable ASCII is written (the standard fonts' encoding
 * has no more that the statements need); other characters become `?`. pdf-lib is loaded on the first
 * statement asked for, not when the sandbox starts (loading it costs about 170 ms).
 */
import { createRequire } from 'node:module'
import type * as PdfLibModule from 'pdf-lib'

type PdfLib = typeof PdfLibModule
// Required at run time from node_modules rather than imported: the built command line leaves it out of its
// bundle, and loads it only for a statement's PDF.
const loadPdfLib = () => createRequire(import.meta.url)('pdf-lib') as PdfLib

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

function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?')
}

/** Renders `lines` onto as many pages as they need; `footer` is printed at the bottom of every page. */
export async function renderPdf(lines: PdfLine[], footer: string, title: string): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = loadPdfLib()
  const doc = await PDFDocument.create()
  doc.setTitle(printable(title))
  doc.setProducer('OB Console local sandbox')
  const fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  }
  const pages: PdfLine[][] = []
  for (let i = 0; i < lines.length; i += LINES_PER_PAGE) pages.push(lines.slice(i, i + LINES_PER_PAGE))
  if (pages.length === 0) pages.push([])
  pages.forEach((pageLines, i) => {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT])
    let y = PAGE_HEIGHT - 56
    for (const line of pageLines) {
      const size = line.size ?? 10
      page.drawText(printable(line.text), {
        x: 50,
        y,
        size,
        font: line.mono ? fonts.mono : line.bold ? fonts.bold : fonts.regular,
      })
      y -= size + 4
    }
    page.drawText(printable(`${footer}   Page ${i + 1} of ${pages.length}`), {
      x: 50,
      y: 30,
      size: 8,
      font: fonts.regular,
    })
  })
  return Buffer.from(await doc.save())
}
