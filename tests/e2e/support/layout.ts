import type { Locator, Page } from 'playwright-core'

/**
 * Layout assertions on what a person sees (issue 10 §1): the boxes the browser drew, not the DOM's existence.
 * `layoutProblems` lists, in words, what looks broken on the page as rendered now:
 *
 * - a box with a border or a background split into pieces across lines, or drawn as a sliver (less than 6 px one
 *   way while it holds text): what an inline `<a>` wrapping block content looks like;
 * - a short label (2–6 characters, one text node, no children) broken over lines: 热销 drawn one character per
 *   line;
 * - anything wider than the screen (a horizontal scroll on a phone).
 *
 * Hidden elements, zero-size ones and the visually-hidden helper are ignored.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const describe = (el: Element) => {
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/)[0] : ''
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 24)
      return `<${el.tagName.toLowerCase()}${cls ? ` .${cls}` : ''}> “${text}”`
    }
    const viewport = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > viewport + 1)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${viewport}px screen`)
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (!(el instanceof HTMLElement) || el.closest('[hidden], [aria-hidden="true"], .zx-visually-hidden')) continue
      const style = getComputedStyle(el)
      if (style.display === 'none' || style.visibility === 'hidden' || style.position === 'fixed') continue
      const box = el.getBoundingClientRect()
      if (box.width === 0 && box.height === 0) continue
      const text = (el.textContent ?? '').trim()
      const painted =
        (style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) > 0) ||
        (style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent') ||
        style.backgroundImage !== 'none'
      if (painted && text && el.tagName !== 'HTML' && el.tagName !== 'BODY') {
        const rects = Array.from(el.getClientRects()).filter((r) => r.width > 0 || r.height > 0)
        if (style.display === 'inline' && el.children.length > 0 && rects.length > 1)
          problems.push(`${describe(el)} is an inline box split into ${rects.length} pieces`)
        else if (rects.some((r) => r.width < 6 || r.height < 6))
          problems.push(`${describe(el)} is drawn as a sliver (${Math.round(box.width)}×${Math.round(box.height)})`)
      }
      if (el.children.length === 0 && text.length >= 2 && text.length <= 6 && !/\s/.test(text)) {
        const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5
        const rects = Array.from(el.getClientRects())
        const tall = style.display === 'inline' ? rects.length > 1 : box.height > lineHeight * 1.6 + 8
        if (tall && box.width < parseFloat(style.fontSize) * text.length * 0.9)
          problems.push(`${describe(el)}: a ${text.length}-character label broken over lines`)
      }
    }
    return problems
  })
}

/**
 * How tall the tap target of `target` is where a finger lands: along the vertical line through its centre, the run of
 * points around the centre at which the page's hit testing finds the element (or something inside it). Counts an
 * invisible hit area (a pseudo-element, padding) and leaves out any part another element covers. The element must
 * be in view.
 */
export async function tapHeight(target: Locator): Promise<number> {
  return target.evaluate((el) => {
    const box = el.getBoundingClientRect()
    const x = box.left + box.width / 2
    const y = box.top + box.height / 2
    const hits = (at: number) => {
      const found = document.elementFromPoint(x, at)
      return found !== null && el.contains(found)
    }
    if (!hits(y)) return 0
    let top = y
    while (top > 0 && hits(top - 1)) top--
    let bottom = y
    while (bottom < window.innerHeight && hits(bottom + 1)) bottom++
    return bottom - top + 1
  })
}
