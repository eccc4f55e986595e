import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { plainIssueMessage } from './zod-messages.ts'

const first = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value, { error: plainIssueMessage }).error?.issues[0]?.message

describe('plainIssueMessage (zod checks without a message of their own, in words for people)', () => {
  it.each([
    [z.string().trim().max(40), 'x'.repeat(41), '最多 40 个字'],
    [z.string().trim().min(2), 'x', '至少 2 个字'],
    [z.string().trim().min(1), '  ', '不能为空'],
    [z.number().int().max(1_000_000), 2_000_000, '不能大于 1,000,000'],
    [z.number().int().min(-1_000_000), -2_000_000, '不能小于 -1,000,000'],
    [z.number().int().min(0), -3, '不能小于 0'],
    [z.number().int(), 1.5, '须为整数'],
    [z.number(), 'abc', '请填写数字'],
    [z.number(), null, '请填写'],
    [z.string(), undefined, '请填写'],
    [z.array(z.string()).max(10), Array.from({ length: 11 }, () => 'a'), '最多 10 项'],
    [z.enum(['a', 'b']), 'c', '请从选项中选择'],
    [z.url(), 'not a url', '请填写以 http(s) 开头的完整网址'],
  ])('%#: %j → 「%s」', (schema, value, message) => {
    expect(first(schema, value)).toBe(message)
  })

  it("leaves a schema's own message alone", () => {
    expect(first(z.number().min(1, '天数至少 1 天'), 0)).toBe('天数至少 1 天')
  })
})
