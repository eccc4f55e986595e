import type { FormInstance } from 'antd'
import { describe, expect, it } from 'vitest'
import { ConsoleError } from './client.ts'
import { refusalText, showUnderField, validFields } from './valid-fields.ts'

/**
 * A stand-in for an antd form: `registered` are its fields (values, undefined when empty), `stored` what it holds
 * beyond them; `invalid` makes validateFields reject with antd's errorInfo object; `set` records setFields.
 */
function fakeForm(
  registered: Record<string, unknown>,
  options: { invalid?: boolean; stored?: Record<string, unknown> } = {},
) {
  const set: { name: unknown; errors: string[] }[] = []
  const form = {
    validateFields: async (names?: string[]) => {
      if (options.invalid)
        throw { errorFields: [{ name: ['delta'], errors: ['请填写积分数'] }], values: registered, outOfDate: false }
      return names ? Object.fromEntries(names.map((n) => [n, registered[n]])) : registered
    },
    getFieldsValue: (all?: true) =>
      all
        ? Object.fromEntries(Object.entries({ ...registered, ...options.stored }).filter(([, v]) => v !== undefined))
        : registered,
    setFields: (fields: { name: unknown; errors: string[] }[]) => set.push(...fields),
  }
  return { form: form as unknown as FormInstance, set }
}

describe('validFields (a dialog OK that never leaves a rejection to the page)', () => {
  it('answers the values when the rules pass, and only the named fields when asked', async () => {
    const { form } = fakeForm({ delta: -80, note: '误发扣回' })
    expect(await validFields(form)).toEqual({ delta: -80, note: '误发扣回' })
    expect(await validFields(form, ['note'])).toEqual({ note: '误发扣回' })
  })

  it("answers null, not antd's rejected errorInfo object, when a rule fails", async () => {
    const { form } = fakeForm({ delta: undefined }, { invalid: true })
    await expect(validFields(form)).resolves.toBeNull()
  })
})

describe('showUnderField (a refusal about one field shown under it)', () => {
  const refusal = new ConsoleError('积分余额不足，不能扣减这么多', 499, 'delta')

  it('puts the message under the field data.field names, even an empty one', () => {
    const { form, set } = fakeForm({ delta: undefined, note: '误发扣回' })
    expect(showUnderField(form, refusal)).toBe(true)
    expect(set).toEqual([{ name: 'delta', errors: ['积分余额不足，不能扣减这么多'] }])
  })

  it('maps an API field to the form name, and leaves refusals the form has no field for', () => {
    const { form, set } = fakeForm({ price_yuan: 10 })
    const price = new ConsoleError('原价不能低于售价', 400, 'original_price_fen')
    expect(showUnderField(form, price, (f) => (f === 'original_price_fen' ? 'price_yuan' : undefined))).toBe(true)
    expect(showUnderField(form, price)).toBe(false)
    expect(showUnderField(form, new ConsoleError('操作冲突，请刷新后重试', 409))).toBe(false)
    expect(showUnderField(form, new Error('网络连接失败'))).toBe(false)
    expect(showUnderField(undefined, refusal)).toBe(false)
    expect(set).toEqual([{ name: 'price_yuan', errors: ['原价不能低于售价'] }])
  })

  it('reads a refusal in plain words whatever was thrown', () => {
    expect(refusalText(refusal)).toBe('积分余额不足，不能扣减这么多')
    expect(refusalText({ errorFields: [] })).toBe('操作没有完成，请重试')
  })
})
