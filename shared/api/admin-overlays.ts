import { z } from 'zod'
import { OVERLAY_CAP_BOUNDS } from '#shared/overlay-caps.ts'
import { adminListQuery } from './admin-list.ts'
import { JsonId } from './params.ts'

// System overlays (site pop-ups) in the operators' console (request schemas; the console's forms validate with the
// same ones). The learner's rules stay in app/lib/route-rules.ts, with the caps operators set (OverlayCapsSettings).

/** Where an overlay stands: showing now, waiting for its window, past it, or switched off. */
export const OverlayStates = ['live', 'scheduled', 'ended', 'off'] as const

const overlaySortKeys = ['id', 'sort', 'starts_at'] as const

/** GET /api/admin/overlays: every overlay, on or off, filtered by state and name. */
export const OverlayListQuery = adminListQuery(overlaySortKeys, 'sort').extend({
  state: z.enum(OverlayStates).optional(),
  q: z.string().trim().max(40, '搜索内容最多 40 个字').optional(),
})
export type OverlayListQuery = z.output<typeof OverlayListQuery>

const when = z.iso.datetime({ offset: true, message: '时间格式不正确' })

/** The jump of a button: a course, a category or an http(s) address (spec 3's so_jump_type 1, 2, 4). */
const OverlayJump = z.discriminatedUnion('jump_type', [
  z.strictObject({ jump_type: z.null() }),
  z.strictObject({ jump_type: z.literal(1), course_id: JsonId }),
  z.strictObject({ jump_type: z.literal(2), category_id: JsonId }),
  z.strictObject({
    jump_type: z.literal(4),
    url: z
      .string()
      .trim()
      .max(500, '链接最多 500 个字符')
      .regex(/^https?:\/\/[^\s]+$/i, '链接须以 http:// 或 https:// 开头'),
  }),
])

const fields = {
  type: z.union([z.literal(1), z.literal(2)]),
  name: z.string().trim().min(1, '请填写标题').max(30, '标题最多 30 个字'),
  content: z.string().trim().max(2000, '内容最多 2000 个字符').default(''),
  button_text: z.string().trim().min(1, '请填写按钮文字').max(10, '按钮文字最多 10 个字').default('我知道了'),
  image_url: z
    .string()
    .trim()
    .max(500, '图片地址最多 500 个字符')
    .regex(/^(https?:\/\/|\/)[^\s]*$/i, '图片地址须以 http(s):// 或 / 开头')
    .nullable()
    .default(null),
  jump: OverlayJump.default({ jump_type: null }),
  active: z.boolean().default(true),
  starts_at: when.nullable().default(null),
  ends_at: when.nullable().default(null),
  sort: z.number().int().min(0, '排序不能小于 0').max(10_000, '排序最大 10000').default(0),
  urgent: z.boolean().default(false),
}

const window = <T extends { starts_at?: string | null; ends_at?: string | null }>(o: T) =>
  !o.starts_at || !o.ends_at || new Date(o.starts_at) < new Date(o.ends_at)
const windowIssue = { message: '结束时间须晚于开始时间', path: ['ends_at'] }
const imageNeeded = <T extends { type?: 1 | 2; image_url?: string | null }>(o: T) =>
  o.type !== 2 || Boolean(o.image_url)
const imageIssue = { message: '图片弹窗需要图片地址', path: ['image_url'] }

/** POST /api/admin/overlays (and the preview). */
export const OverlayCreate = z.strictObject(fields).refine(window, windowIssue).refine(imageNeeded, imageIssue)
export type OverlayCreate = z.output<typeof OverlayCreate>

/** PATCH /api/admin/overlays/:id: the fields to change; `active: false` switches it off. */
export const OverlayPatch = z
  .strictObject({
    type: fields.type.optional(),
    name: fields.name.optional(),
    content: z.string().trim().max(2000, '内容最多 2000 个字符').optional(),
    button_text: z.string().trim().min(1, '请填写按钮文字').max(10, '按钮文字最多 10 个字').optional(),
    image_url: fields.image_url.removeDefault().optional(),
    jump: OverlayJump.optional(),
    active: z.boolean().optional(),
    starts_at: when.nullable().optional(),
    ends_at: when.nullable().optional(),
    sort: fields.sort.removeDefault().optional(),
    urgent: z.boolean().optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { message: '没有要修改的内容' })
  .refine(window, windowIssue)
export type OverlayPatch = z.output<typeof OverlayPatch>

const cap = (name: keyof typeof OVERLAY_CAP_BOUNDS, label: string) => {
  const { min, max } = OVERLAY_CAP_BOUNDS[name]
  return z
    .number(`请填写${label}`)
    .int(`${label}须为整数`)
    .min(min, `${label}最少 ${min}`)
    .max(max, `${label}最多 ${max}`)
}

/** GET and PUT /api/admin/settings/overlay-caps: how often learners may see overlays (shared/overlay-caps.ts). */
export const OverlayCapsSettings = z.strictObject({
  per_page: cap('per_page', '每个页面的弹窗数'),
  per_session: cap('per_session', '每次访问的弹窗数'),
  urgent_exempt: z.boolean(),
  seen_days: cap('seen_days', '看过后不再弹出的天数'),
})
export type OverlayCapsSettings = z.output<typeof OverlayCapsSettings>
