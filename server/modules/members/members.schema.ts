import { z } from 'zod'

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
