import { z } from 'zod'
import { JsonId } from './params.ts'

// Hot search words in the operators' console (request schemas; the console's forms validate with the same ones).

export const HotWordBody = z.strictObject({
  word: z.string().trim().min(1, '请填写热词').max(20, '热词最多 20 个字'),
})
export type HotWordBody = z.output<typeof HotWordBody>

export const HotWordOrder = z.strictObject({
  ids: z.array(JsonId).min(1, '至少一个').max(100, '最多 100 个'),
})
export type HotWordOrder = z.output<typeof HotWordOrder>
