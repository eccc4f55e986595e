import { z } from 'zod'

/** The SMS code that confirms exporting or deleting one's data (POST /api/account/export, /api/account/delete). */
export const AccountCodeBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{4,8}$/, { error: '请输入短信验证码' }),
})
