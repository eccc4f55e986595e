import { createHash } from 'node:crypto'

/**
 * CSS-module class names. Development: `title_Ab3x9`, the local name and a hash of the file's CSS (unique per file,
 * as postcss-modules' default), without its `_…_<line>` decorations: the line numbers differ for every class and
 * compress badly in the scripts that carry the names (issue 11 §4).
 *
 * Production: `_` and six characters of a hash of the file's CSS and the local name. Every element of a server
 * render writes its class names out, and on `/` the readable names were a quarter of the page's markup (7.6 KB of
 * class attributes): React escapes and encodes each byte on every uncached render (issue 11 §3). Two classes that
 * hash alike would silently share styles, so a clash fails the build.
 */
export function cssClassNames(production: boolean) {
  const owners = new Map<string, string>()
  return function scopedName(name: string, file: string, css: string) {
    const ofFile = createHash('sha1').update(css).digest('base64url').slice(0, 5)
    if (!production) return `${name}_${ofFile}`
    const short = `_${createHash('sha1').update(`${ofFile}\0${name}`).digest('base64url').slice(0, 6)}`
    const owner = `${file}\0${name}`
    const before = owners.get(short)
    if (before !== undefined && before !== owner)
      throw new Error(`CSS class name ${short} for both ${before} and ${owner}: change either class's name`)
    owners.set(short, owner)
    return short
  }
}
