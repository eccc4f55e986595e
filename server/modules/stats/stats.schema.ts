import { z } from 'zod'

/** The click statistics of spec 7 (POST /stat/{name}/click). */
export const statNames = [
  'project',
  'studyRecord',
  'fav',
  'bindPhone',
  'courseDetailTag',
  'customer',
  'myCourse',
  'vipTarbar',
  'vipBuyBtn',
] as const
export type StatName = (typeof statNames)[number]

/** The event a click on a course's comment area records (POST /comment/course/click). */
export const COMMENT_CLICK_EVENT = 'commentCourse'

/**
 * Both fields are optional; the spec's client sends `{ position }` (1 for the purchased and VIP tabs, 3 for the
 * service button) and the wrapper may add `sp` and `url`, which are ignored here.
 */
export const StatClickBody = z.preprocess(
  // navigator.sendBeacon posts a string as text/plain (a CORS-safe type): its JSON is the body.
  (v) => {
    if (typeof v !== 'string') return v
    try {
      return v.trim() ? (JSON.parse(v) as unknown) : null
    } catch {
      return null
    }
  },
  z
    .object({
      position: z
        .union([z.number().int().min(0).max(1_000_000), z.string().max(32)])
        .optional()
        .transform((v) => (v === undefined || v === '' ? null : String(v)))
        .describe('Where on the page (a number or a short label)'),
      page: z
        .string()
        .max(300)
        .optional()
        .transform((v) => v || null)
        .describe('The page path'),
      token: z
        .string()
        .max(200)
        .optional()
        .describe('The ZXB-Token, for beacons (which cannot send headers); the header wins when both are sent'),
    })
    // No body at all arrives as null.
    .nullish()
    .transform((b) => ({ position: b?.position ?? null, page: b?.page ?? null, token: b?.token ?? null })),
)
export type StatClickBody = z.output<typeof StatClickBody>

export interface RollupRow {
  /** The Beijing calendar day, YYYY-MM-DD. */
  day: string
  event: string
  count: number
  /** Distinct signed-in members. */
  members: number
}
