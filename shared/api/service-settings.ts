import { z } from 'zod'

// What the floating 客服 button, the consult button and the /customer pages show (GET and PUT
// /api/admin/settings/service; the learner pages read it through the root loader). The console's form validates
// with the same schema.

const link = z
  .string()
  .trim()
  .max(500, '链接最多 500 个字符')
  .regex(/^https:\/\/[^\s]+$/i, '链接须以 https:// 开头')

/** The customer-service setting, as learners' pages read it and operators save it. */
export const ServiceSettings = z.strictObject({
  /** The WeCom customer-service chat (the floating 客服 button). */
  service_url: link,
  /** The consult chat (the consult button on system courses, VIP and, when switched on, checkout). */
  consult_url: link,
  consult_on_checkout: z.boolean(),
  /** A WeCom QR image learners can scan (shown on /customer); null: none. */
  qr_image: z
    .string()
    .trim()
    .max(500, '图片地址最多 500 个字符')
    .regex(/^(https:\/\/|\/)[^\s]*$/i, '图片地址须以 https:// 或 / 开头')
    .nullable(),
  /** When people answer, e.g. 每天 9:00–21:00. */
  hours: z.string().trim().max(40, '服务时间最多 40 个字'),
  /** A phone number learners may call; empty: none. */
  phone: z
    .string()
    .trim()
    .max(20, '电话最多 20 个字符')
    .regex(/^[\d\s+\-()]*$/, '电话只能包含数字、空格和 + - ( )'),
})
export type ServiceSettings = z.output<typeof ServiceSettings>
