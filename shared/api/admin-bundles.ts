import { z } from 'zod'
import { JsonId } from './params.ts'

// Course bundles as operators edit them (POST/PATCH /api/admin/bundles; the console's form validates with the
// same schema). Prices in fen.

export const StaffBundleInput = z.object({
  title: z.string().trim().min(1, '请填写标题').max(40, '标题最多 40 个字'),
  subtitle: z.string().trim().max(80).default(''),
  cover_url: z.string().trim().max(500).nullable().optional(),
  intro: z.string().trim().max(2000).default(''),
  price_fen: z.number().int().min(1, '套餐价至少 0.01 元').max(5_000_000, '套餐价最多 50,000 元'),
  /** 2 to 30 distinct courses, in display order (checked by the service, which names the problem). */
  course_ids: z.array(JsonId).max(30),
  active: z.boolean().default(true),
  sort: z.number().int().min(0).max(10_000).default(0),
})
export const StaffBundlePatch = StaffBundleInput.partial()
