import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { envelope, listEnvelope } from '#server/http/envelope.ts'
import { CourseCard } from '#shared/api/catalogue.ts'
import { PathId as id } from '#shared/api/params.ts'

export const BundleListQuery = z.object({ course_id: id.optional().describe('Only the bundles that hold this course') })

export const BundleCard = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  cover: z.string().nullable().describe('Image URL, 16:9; null: the client shows the first course covers'),
  price_fen: Fen.describe('The bundle price in fen'),
  list_price_fen: Fen.describe('What its paid courses cost one by one'),
  course_count: z.number().int(),
  covers: z.array(z.string()).describe('The first three course covers'),
})
export type BundleCard = z.infer<typeof BundleCard>

export const BundleDetail = BundleCard.extend({
  intro: z.string(),
  on_sale: z.boolean(),
  courses: z.array(CourseCard.extend({ owned: z.boolean().describe('Signed in: the member owns it already') })),
  /**
   * What the signed-in member would pay now: the bundle price, or less when they own some of its courses (in
   * proportion to the list prices of the rest); null when they own them all. Anonymous: the bundle price.
   */
  pay_fen: Fen.nullable(),
})
export type BundleDetail = z.infer<typeof BundleDetail>

export const BundleListResponse = listEnvelope(BundleCard)
export const BundleDetailResponse = envelope(BundleDetail)

export { StaffBundleInput, StaffBundlePatch } from '#shared/api/admin-bundles.ts'

const StaffBundle = BundleCard.extend({
  intro: z.string(),
  active: z.boolean(),
  sort: z.number().int(),
  course_ids: z.array(z.number().int()),
  cover_url: z.string().nullable(),
})
export const StaffBundleResponse = envelope(StaffBundle)
export const StaffBundleListResponse = listEnvelope(StaffBundle)
