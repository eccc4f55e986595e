import { readFile } from 'node:fs/promises'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import subsetFont from 'subset-font'

// A signed contract as a PDF (issue 15 §2): the frozen text with both fonts embedded (subset), the hand-drawn
// signature and the signing record. Droid Sans Fallback (Debian fonts-droid-fallback) covers CJK but has no Latin
// letters or digits, so ASCII runs are drawn with DejaVu Sans (fonts-dejavu-core); .ci/run installs both.
// DejaVu is embedded as a fontkit subset. Droid is cut down to the contract's own characters by HarfBuzz
// (subset-font) and that font embedded as it is: a fontkit subset of Droid keeps the text extractable but draws every
// CJK glyph blank (seen with poppler; contracts.test.ts renders the page to catch it). A signed contract is tens of
// KB, where embedding Droid whole made it about 2.4 MB (docs/decisions/2026-11-26-tuition-and-contracts.md).

const CONTRACT_FONTS = {
  cjk: '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
  latin: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
}

const SIGNATURE_LABEL = '乙方（学员）签名：'
const PAGE = { width: 595.28, height: 841.89, margin: 50 }
const SIZE = 11
const LEADING = 17

let fontBytes: Promise<[Buffer, Buffer]> | null = null
const loadFonts = () => (fontBytes ??= Promise.all([readFile(CONTRACT_FONTS.cjk), readFile(CONTRACT_FONTS.latin)]))

interface Run {
  text: string
  font: PDFFont
}

/** Splits a line into runs of ASCII (DejaVu) and everything else (Droid). */
function runsOf(line: string, cjk: PDFFont, latin: PDFFont): Run[] {
  const runs: Run[] = []
  for (const ch of line) {
    const font = /[\x20-\x7e]/.test(ch) ? latin : cjk
    const last = runs.at(-1)
    if (last && last.font === font) last.text += ch
    else runs.push({ text: ch, font })
  }
  return runs
}

/** Wraps a paragraph to the width, character by character (Chinese has no spaces to break at). */
function wrap(paragraph: string, width: number, cjk: PDFFont, latin: PDFFont): string[] {
  const lines: string[] = []
  let line = ''
  let w = 0
  for (const ch of paragraph) {
    const font = /[\x20-\x7e]/.test(ch) ? latin : cjk
    const cw = font.widthOfTextAtSize(ch, SIZE)
    if (w + cw > width && line) {
      lines.push(line)
      line = ''
      w = 0
    }
    line += ch
    w += cw
  }
  lines.push(line)
  return lines
}

export interface ContractPdfInput {
  title: string
  text: string
  signaturePng: Buffer
  /** The signing record printed under the signature: name, time, phone, address, document number. */
  record: string[]
  signedAt: Date
}

/** The PDF bytes of a signed contract. The same input gives the same bytes (dates come from `signedAt`). */
export async function renderContractPdf(input: ContractPdfInput): Promise<Uint8Array> {
  const [cjkBytes, latinBytes] = await loadFonts()
  const doc = await PDFDocument.create()
  doc.registerFontkit(fontkit)
  const drawn = [input.title, input.text, SIGNATURE_LABEL, ...input.record].join('')
  const cjk = await doc.embedFont(await subsetFont(cjkBytes, drawn, { targetFormat: 'truetype' }), { subset: false })
  const latin = await doc.embedFont(latinBytes, { subset: true })
  doc.setTitle(input.title, { showInWindowTitleBar: true })
  doc.setCreator('Zixue')
  doc.setProducer('Zixue')
  doc.setCreationDate(input.signedAt)
  doc.setModificationDate(input.signedAt)

  const width = PAGE.width - 2 * PAGE.margin
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height])
  let y = PAGE.height - PAGE.margin
  const newPageIfFull = (need: number) => {
    if (y - need >= PAGE.margin) return
    page = doc.addPage([PAGE.width, PAGE.height])
    y = PAGE.height - PAGE.margin
  }
  const drawLine = (line: string, size = SIZE) => {
    newPageIfFull(LEADING)
    let x = PAGE.margin
    for (const run of runsOf(line, cjk, latin)) {
      page.drawText(run.text, { x, y: y - size, size, font: run.font, color: rgb(0.1, 0.1, 0.1) })
      x += run.font.widthOfTextAtSize(run.text, size)
    }
    y -= LEADING
  }

  drawLine(input.title, 16)
  y -= 8
  for (const paragraph of input.text.split('\n')) for (const line of wrap(paragraph, width, cjk, latin)) drawLine(line)

  y -= 12
  const png = await doc.embedPng(input.signaturePng)
  const scaled = png.scaleToFit(180, 80)
  newPageIfFull(scaled.height + 24 + input.record.length * LEADING)
  drawLine(SIGNATURE_LABEL)
  page.drawImage(png, { x: PAGE.margin, y: y - scaled.height, width: scaled.width, height: scaled.height })
  y -= scaled.height + 8
  for (const line of input.record) for (const l of wrap(line, width, cjk, latin)) drawLine(l)
  return doc.save({ useObjectStreams: false })
}
