import { z } from 'zod'
import { MemberProfile } from '#shared/api/members.ts'

// Strings only: a phone or a code sent as a number is a malformed request (400 naming the field). The bounds keep
// oversized values out; the real rules (pattern after trimming, 401/405) are the service's.
const phone = z.string().max(32).describe('11-digit mainland mobile number; surrounding spaces are trimmed')
const phoneCode = z.string().max(16).describe('The 4-digit code sent by SMS')

/** `ke2` (forced purchaser mode) arrives as a boolean, 0/1 or their string forms. */
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])])
  .optional()
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true')

/** Platform code of spec section 9: 1 desktop, 2 mobile browser, 3 WeChat. */
const platform = z
  .union([z.number().int().min(0).max(99), z.string().regex(/^\d{1,2}$/)])
  .optional()
  .transform((v) => (v === undefined ? undefined : Number(v)))

export const SendCodeBody = z.object({ phone, ke2: flag })

export const LoginBody = z.object({ phone, phone_code: phoneCode, platform, ke2: flag })

export const LoginResult = z.object({
  token: z.string().describe('Send it as the ZXB-Token header'),
  expire_in: z.number().int().describe('Seconds the token stays valid'),
})

export const BindPhoneSendCodeBody = z.object({ phone })

export const BindPhoneBody = z.object({ phone, phone_code: phoneCode, platform })

export const BindPhoneSendCodeResult = z.object({
  merge: z.boolean().describe('The phone belongs to another member: binding it will merge the two members into one'),
})

export const BindPhoneResult = MemberProfile.extend({
  merged: z.boolean().describe('Another member held the phone and now holds everything of the signed-in member'),
  token: z.string().optional().describe('After a merge: the new token (the old one has ended)'),
  expire_in: z.number().int().optional().describe('After a merge: seconds the new token stays valid'),
})

export const OutboxQuery = z.object({ phone: z.string().max(32).optional() })

export const OutboxList = z.object({
  list: z.array(
    z.object({
      phone: z.string(),
      code: z.string(),
      purpose: z.enum(['login', 'bind', 'step_up', 'account', 'contract']),
      sent_at: z.iso.datetime(),
    }),
  ),
})
