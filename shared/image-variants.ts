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

/** A `srcset` of every variant width for one of the site's images; undefined for any other URL (a CDN's). */
export function imageSrcSet(src: string) {
  return RESIZABLE.test(src) ? IMAGE_VARIANT_WIDTHS.map((w) => `/img/${w}${src} ${w}w`).join() : undefined
}
