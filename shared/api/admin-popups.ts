import { z } from 'zod'
import { adminListQuery, SearchText } from './admin-list.ts'
import { MAX_INT, OptionalIdQuery } from './params.ts'

// The player's popups in the operators' console (request schemas; the console's form validates with the same
// ones). A popup is a card the player shows at a second of one video, or of every video of a course.

const popupSortKeys = ['id', 'at_second', 'created_at'] as const

/** GET /api/admin/popups: every popup, on or off, by course, video, state and title. */
export const PopupListQuery = adminListQuery(popupSortKeys, '-id').extend({
  course_id: OptionalIdQuery,
  video_id: OptionalIdQuery,
  state: z.enum(['on', 'off']).optional(),
  q: SearchText.optional(),
})
export type PopupListQuery = z.output<typeof PopupListQuery>

/** Where a popup shows: every video of a course, or one video. */
export const PopupTargets = ['course', 'video'] as const

const fields = {
  target: z.enum(PopupTargets, '请选择出现在课程还是单个视频'),
  target_id: z.number('请填写课程或视频 ID').int().positive('ID 必须是正整数').max(MAX_INT, 'ID 超出范围'),
  at_second: z
    .number('请填写出现的秒数')
    .int('秒数须为整数')
    .min(0, '秒数不能小于 0')
    .max(36_000, '秒数最大 36000（10 小时）'),
  title: z.string().trim().min(1, '请填写标题').max(30, '标题最多 30 个字'),
  content: z.string().trim().max(200, '内容最多 200 个字').default(''),
  image_url: z
    .string()
    .trim()
    .max(500, '图片地址最多 500 个字符')
    .regex(/^(https?:\/\/|\/(?!\/))[^\s]*$/i, '图片地址须以 http(s):// 或 / 开头')
    .nullable()
    .default(null),
  /** An in-site path ("/vip") or an http(s) address: what the card's 查看 opens; null: no button. */
  link: z
    .string()
    .trim()
    .max(500, '链接最多 500 个字符')
    .regex(/^(https?:\/\/[^\s]+|\/(?!\/)[^\s]*)$/i, '链接须以 / 或 http(s):// 开头')
    .nullable()
    .default(null),
  active: z.boolean().default(true),
}

/** POST /api/admin/popups. */
export const PopupCreate = z.strictObject(fields)
export type PopupCreate = z.output<typeof PopupCreate>

/** PATCH /api/admin/popups/:id: the fields to change (the target and its id together); `active: false` hides it. */
export const PopupPatch = z
  .strictObject({
    target: fields.target.optional(),
    target_id: fields.target_id.optional(),
    at_second: fields.at_second.optional(),
    title: fields.title.optional(),
    content: fields.content.removeDefault().optional(),
    image_url: fields.image_url.removeDefault().optional(),
    link: fields.link.removeDefault().optional(),
    active: z.boolean().optional(),
  })
  .refine((o) => Object.keys(o).length > 0, { message: '没有要修改的内容' })
  .refine((o) => (o.target === undefined) === (o.target_id === undefined), {
    message: '出现位置和 ID 须一起修改',
    path: ['target_id'],
  })
export type PopupPatch = z.output<typeof PopupPatch>
