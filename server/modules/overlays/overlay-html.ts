import { LRUCache } from 'lru-cache'
import sanitizeHtml from 'sanitize-html'

/**
 * The only markup an overlay's text may carry. Everything else is removed: scripts and styles with their
 * content, every `on*` handler and style attribute, and links or images whose address is not http(s) (or, for
 * images, a path on this site). Links open in a new tab without handing over `window.opener`.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'span', 'a', 'img'],
  // target and rel are the ones transformTags sets; whatever the author wrote is replaced first.
  allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = attribs.href?.trim()
      if (!href || !/^https?:\/\//i.test(href)) return { tagName: 'span', attribs: {} }
      return { tagName, attribs: { href, target: '_blank', rel: 'noopener noreferrer' } }
    },
  },
}

/** Sanitised HTML by its source: the same few overlays are shown on every page. */
const memo = new LRUCache<string, string>({ max: 200 })

/** Overlay HTML made safe to put in the page with innerHTML. */
export function sanitizeOverlayHtml(html: string): string {
  const hit = memo.get(html)
  if (hit !== undefined) return hit
  const clean = sanitizeHtml(html, options)
  memo.set(html, clean)
  return clean
}

/** A custom jump address (jump type 4) is followed only when it is an absolute http(s) URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2000) return false
  try {
    const u = new URL(value)
    return u.protocol === 'http:' || u.protocol === 'https:'
  } catch {
    return false
  }
}
