import { z } from 'zod'

// What the floating 客服 button, the consult button and the /customer pages show (GET and PUT
// /api/admin/settings/service; the learner pages read it through the root loader). The console's form validates
// with the same schema.

const link = z
  .string()
  .trim()
  .max(500, '链接最多 500 个字符')
  .regex(/^https:\/\/[^\s]+$/i, '链接须以 https:// 开头')

/** An image address: uploaded through the console (a site path) or https. */
const image = z
  .string()
  .trim()
  .max(500, '图片地址最多 500 个字符')
  .regex(/^(https:\/\/|\/)[^\s]*$/i, '图片地址须以 https:// 或 / 开头')
  .nullable()

/** A sentence a QR page shows under its code. */
const qrText = (what: string) => z.string().trim().max(200, `${what}最多 200 个字`)

/** The customer-service setting, as learners' pages read it and operators save it. */
export const ServiceSettings = z.strictObject({
  /** The WeCom customer-service chat (the floating 客服 button). */
  service_url: link,
  /** The consult chat (the consult button on system courses, VIP and, when switched on, checkout). */
  consult_url: link,
  consult_on_checkout: z.boolean(),
  /** A WeCom QR image learners can scan (shown on /customer); null: none. */
  qr_image: image,
  /** When people answer, e.g. 每天 9:00–21:00. */
  hours: z.string().trim().max(40, '服务时间最多 40 个字'),
  /** A phone number learners may call; empty: none. */
  phone: z
    .string()
    .trim()
    .max(20, '电话最多 20 个字符')
    .regex(/^[\d\s+\-()]*$/, '电话只能包含数字、空格和 + - ( )'),
  /** The Official Account's follow QR (/data/follow, GET /wechat/subscribe); null: none. Absent: kept as saved. */
  follow_qr_image: image.optional(),
  follow_text: qrText('关注公众号说明').optional(),
  /** The staff member's WeCom contact QR (/data/wwx, GET /contact/qrcode); null: none. Absent: kept as saved. */
  wwx_qr_image: image.optional(),
  wwx_text: qrText('添加企业微信说明').optional(),
})
export type ServiceSettings = z.output<typeof ServiceSettings>
