/**
 * What a page shows as text, to check that the floor (bench/ssr-floor/) carries the same content as the app's page:
 * the body's text before the scripts, without tags, comments and white space, and without "¥" (the app's prices draw
 * it in CSS). Returns the characters one page shows and the other does not.
 */
export function textDifference(app: string, floor: string): { missing: string; extra: string } {
  const a = counts(visibleText(app))
  const f = counts(visibleText(floor))
  return { missing: surplus(a, f), extra: surplus(f, a) }
}

function visibleText(html: string) {
  const body = html.slice(html.indexOf('<body'))
  return body
    .slice(0, body.indexOf('<script'))
    .replace(/<!--.*?-->/gs, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"' })[e] ?? "'")
    .replace(/[\s¥]/g, '')
}

function counts(text: string) {
  const m = new Map<string, number>()
  for (const ch of text) m.set(ch, (m.get(ch) ?? 0) + 1)
  return m
}

function surplus(a: Map<string, number>, b: Map<string, number>) {
  let out = ''
  for (const [ch, n] of a) out += ch.repeat(Math.max(0, n - (b.get(ch) ?? 0)))
  return out
}
