import type { ImgHTMLAttributes } from 'react'
import { imageSrcSet } from '#shared/image-variants.ts'

type CoverImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'width' | 'sizes'> & {
  src: string | null | undefined
} & (
    | { width: number; sizes?: string }
    | {
        width?: number
        /**
         * The width the cover is shown at, as a `sizes` value: `128px` (a row), `(min-width: 500px) 240px, 50vw` (a
         * grid tile), `(min-width: 500px) 500px, 100vw` (the layout's whole width). Default: `width` in CSS px.
         */
        sizes: string
      }
  )

/**
 * A course cover (or any of the site's images shown smaller than stored): the stored image as `src`, and resized
 * copies in `srcSet` (shared/image-variants.ts) so a phone downloads one near the size it shows. Every list and
 * page that shows a cover renders it through this (with `loading="lazy"` below the fold). A cover shown at one
 * width (`sizes` of `128px`, or `width` alone) lists only the variants a screen up to 3× can pick.
 */
export function CoverImage({ src, ...rest }: CoverImageProps) {
  if (!src) return null
  const sizes = rest.sizes ?? `${rest.width}px`
  // A fixed width (`128px`) needs no variant wider than that width at 3×.
  const fixed = /^(\d+)px$/.exec(sizes)
  return (
    <img alt="" {...rest} sizes={sizes} src={src} srcSet={imageSrcSet(src, fixed ? Number(fixed[1]) : undefined)} />
  )
}
