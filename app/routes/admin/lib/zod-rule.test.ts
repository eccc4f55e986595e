import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CourseCreate } from '#shared/api/catalogue-editing.ts'
import { VipPlanForm } from '#shared/api/admin-vip.ts'
import { rangeRule, zodBodyRule, zodRule } from './zod-rule.ts'

/** What a rule says of `value`: its message, or null when it passes. */
const says = async (rule: { validator: (r: unknown, v: unknown) => Promise<void> }, value: unknown) =>
  rule.validator({}, value).then(
    () => null,
    (e: Error) => e.message,
  )

describe('zodRule (a form field checked by the API schema)', () => {
  it.each([undefined, null, ''])('leaves an empty field (%j) to the required rule', async (value) => {
    expect(await says(zodRule(CourseCreate.shape.title), value)).toBeNull()
    expect(await says(zodRule(VipPlanForm.shape.days), value)).toBeNull()
  })

  it.each([
    [VipPlanForm.shape.price_yuan, -10, '价格不能小于 0.01 元'],
    [VipPlanForm.shape.days, 0, '天数至少 1 天'],
    [CourseCreate.shape.points_price, -100, '积分价至少 1 积分'],
  ])('refuses an out-of-range number as typed, in words for people (%#)', async (schema, value, message) => {
    expect(await says(zodRule(schema), value)).toBe(message)
  })

  it('checks a price in yuan as the fen it becomes', async () => {
    const price = zodRule(CourseCreate.shape.price_fen, (v) => Math.round((v as number) * 100))
    expect(await says(price, -5)).toBe('价格不能小于 0 元')
    expect(await says(price, 0)).toBeNull()
  })
})

describe('zodBodyRule (a field checked as part of the body)', () => {
  const Body = z
    .object({ on: z.boolean(), periods: z.array(z.number()), days: z.number().int().min(1) })
    .refine((b) => !b.on || b.periods.length > 0, { message: '请至少选择一种期数', path: ['periods'] })
  const rule = (field: string, values: object) =>
    zodBodyRule(Body, (v: object) => v, field)({ getFieldsValue: () => values })

  it('leaves an empty field to required, but still speaks a rule across fields', async () => {
    expect(await says(rule('days', { on: false, periods: [], days: null }), null)).toBeNull()
    expect(await says(rule('periods', { on: true, periods: [], days: 1 }), [])).toBe('请至少选择一种期数')
  })
})

describe('rangeRule (a number field without a schema)', () => {
  it('says what the bound is and never passes a number outside it', async () => {
    expect(await says(rangeRule(0), -20)).toBe('不能小于 0')
    expect(await says(rangeRule(1, 3650), 4000)).toBe('不能大于 3,650')
    expect(await says(rangeRule(0), 0)).toBeNull()
    expect(await says(rangeRule(0), null)).toBeNull()
  })
})
