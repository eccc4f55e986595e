/**
 * Resized copies of the site's own images (course covers above all), so a phone downloads a cover near the size it
 * shows it at instead of the stored original. `/img/<width>/<path>` answers the image at `/<path>` (under `/demo/`
 * or `/media/`) at most `width` pixels wide, in WebP; the server makes each one on first request and keeps it in
 * the public media store (server/integrations/storage/image-variants.ts).
 */
export const IMAGE_VARIANT_WIDTHS = [240, 360, 480, 640, 960] as const

export type ImageVariantWidth = (typeof IMAGE_VARIANT_WIDTHS)[number]

/**
 * Paths the variants are made from: the demo's generated images and the public media store (WebP, as every image
 * the site stores: media.service.ts re-encodes uploads). The server refuses
 * more (a `..` part, a path outside its folders): this only keeps other URLs (a CDN's) out of `srcset`.
 */
export const RESIZABLE = /^\/(demo|media)\/.+\.webp$/

/** The densest screen a variant is offered for: phones go up to 3 device pixels per CSS pixel. */
const MAX_DENSITY = 3

/**
 * A `srcset` of the variant widths for one of the site's images; undefined for any other URL (a CDN's). `shownAt`:
 * the width in CSS pixels when the image is always shown at one width (a `sizes` of `128px`): then only the widths
 * up to the first that covers it at MAX_DENSITY are listed, since a browser at 3× or less never picks a wider one
 * (a row's cover: 3 widths instead of 5, bytes in every server render of a list; issue 11 §3).
 */
export function imageSrcSet(src: string, shownAt?: number) {
  if (!RESIZABLE.test(src)) return undefined
  const enough = shownAt === undefined ? -1 : IMAGE_VARIANT_WIDTHS.findIndex((w) => w >= shownAt * MAX_DENSITY)
  const widths = enough === -1 ? IMAGE_VARIANT_WIDTHS : IMAGE_VARIANT_WIDTHS.slice(0, enough + 1)
  return widths.map((w) => `/img/${w}${src} ${w}w`).join()
}
