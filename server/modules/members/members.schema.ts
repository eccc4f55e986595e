import { z } from 'zod'

/** A member's profile as the API shows it. The phone is always masked (138****8000). */
export const MemberProfile = z.object({
  member_id: z.number().int(),
  nickname: z.string(),
  avatar: z.string().nullable().describe('An uploaded image URL (/media/uploads/...), or null for the default avatar'),
  phone: z.string().describe('Masked, e.g. 138****8000; empty when no phone is bound'),
  has_phone: z.boolean(),
  wechat_bound: z.boolean(),
  role: z.enum(['member', 'staff', 'admin']),
  created_at: z.iso.datetime(),
})
export type MemberProfile = z.infer<typeof MemberProfile>

export const MemberIdQuery = z.object({
  member_id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 2_147_483_647, '学员编号不正确'),
})

export const UpdateMemberInfoBody = z.object({
  // Loose bounds here keep huge strings out; the real rules (1–20 characters after trimming) are the service's.
  nickname: z.string().max(200).optional(),
  avatar: z.string().max(500).optional(),
})
export type UpdateMemberInfoBody = z.infer<typeof UpdateMemberInfoBody>
