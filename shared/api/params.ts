import { z } from 'zod'

// Request pieces every API module uses: ids and page sizes in the query string and the body.

export const MAX_INT = 2_147_483_647
const idText = z.string().regex(/^[1-9]\d{0,9}$/, '必须是正整数')

/** A required numeric id in the query string: "abc", "0" or "-1" answer 400 naming the field. */
export const IdQuery = idText.transform(Number).refine((n) => n <= MAX_INT, '超出范围')

/** An optional numeric id; an empty value (`?cate_id=`) counts as absent, as the spec's wrapper sends it. */
export const OptionalIdQuery = z
  .union([z.literal(''), idText])
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .refine((n) => n === undefined || n <= MAX_INT, '超出范围')

/** A positive id given as digits: in the path (`/admin/bundles/:id`) or the query string (`?member_id=3`). */
export const PathId = z.coerce.number().int().positive().max(MAX_INT)

/** A positive id in a JSON body, a number only (BodyId also takes a numeric string). */
export const JsonId = z.number().int().positive().max(MAX_INT)

/** A record's id in the path (`/admin/bundles/:id`). */
export const IdParams = z.object({ id: PathId })

/** A positive id in a JSON body: a number, or a numeric string as older clients send. */
export const BodyId = z
  .union([
    z.number().int().min(1).max(MAX_INT),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/, '必须是正整数')
      .transform(Number),
  ])
  .refine((n) => n <= MAX_INT, '超出范围')

/** The cursor of an id-ordered list: the last id of the previous page, as text. */
const IdCursor = z
  .union([z.literal(''), z.string().regex(/^[1-9]\d{0,9}$/, '格式不正确')])
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .describe('next_cursor of the previous page')

/** A page of an id-ordered list in the query string: after `cursor`, `limit` rows (1–50, default 20). */
export const IdPageQuery = z.object({ cursor: IdCursor, limit: pageLimit(50, 20) })

export function pageLimit(max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d{1,3}$/, `必须是 1–${max} 的整数`)
    .optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .refine((n) => n >= 1 && n <= max, `必须是 1–${max} 的整数`)
    .describe(`Page size, 1–${max}, default ${fallback}`)
}
