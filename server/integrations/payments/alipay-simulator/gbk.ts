// GBK encoding for the simulator's bill files (Alipay's bills are GBK CSV). Node decodes GBK (TextDecoder, full
// ICU) but does not encode it, so the table is built once from the decoder: every two-byte GBK code decoded, and
// the character mapped back to its bytes. The adapter only decodes, with TextDecoder.

let table: Map<string, number> | null = null

function gbkTable() {
  if (table) return table
  table = new Map()
  const decoder = new TextDecoder('gbk', { fatal: true })
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue
      try {
        const ch = decoder.decode(Uint8Array.of(lead, trail))
        if (ch.length === 1 && !table.has(ch)) table.set(ch, (lead << 8) | trail)
      } catch {
        // not a character in GBK
      }
    }
  }
  return table
}

/** `text` in GBK; a character GBK lacks becomes "?" (the simulator's texts are ASCII and common Chinese). */
export function encodeGbk(text: string): Buffer {
  const bytes: number[] = []
  const codes = gbkTable()
  for (const ch of text) {
    const c = ch.codePointAt(0)!
    if (c < 0x80) bytes.push(c)
    else {
      const code = codes.get(ch)
      if (code === undefined) bytes.push(0x3f)
      else bytes.push(code >> 8, code & 0xff)
    }
  }
  return Buffer.from(bytes)
}
