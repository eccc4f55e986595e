import type { z } from 'zod'

/** Nothing typed or chosen: left to the field's `required` rule, which names what is missing. */
const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

/**
 * An antd Form rule from the API's own zod schema: the field is checked by the same schema the server uses, and
 * its message is the schema's (e.g. "请输入 11 位手机号"), or shared/zod-messages.ts's words where the schema has
 * none. An empty field passes: a required one has `required` with its own 「请填写…」, so it is not told twice,
 * and an optional one is sent empty. `toApi` turns what the field holds into what the API takes first (yuan
 * typed → fen sent).
 */
export function zodRule(schema: z.ZodType, toApi: (value: unknown) => unknown = (v) => v) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (isEmpty(value)) return
      const result = schema.safeParse(toApi(value))
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确')
    },
  }
}

/**
 * An antd Form rule (a function of the form) checking the whole body with the API's `schema`, for rules across
 * fields (a deposit below the total): `toBody` turns the form's values into the request body, and the issue the
 * schema reports at the body's field `field` is this field's message.
 */
export function zodBodyRule<V>(schema: z.ZodType, toBody: (values: V) => unknown, field: string) {
  return (form: { getFieldsValue: (all: true) => V }) => ({
    validator: async (_rule: unknown, value: unknown) => {
      const result = schema.safeParse(toBody(form.getFieldsValue(true)))
      // Left empty, only a rule across fields speaks ("允许花呗分期时请至少选择一种期数"): the rest is `required`'s.
      const issue = result.success
        ? undefined
        : result.error.issues.find((i) => i.path[0] === field && (!isEmpty(value) || i.code === 'custom'))
      if (issue) throw new Error(issue.message)
    },
  })
}

/** A field's rules: `required`'s message when it is left empty (none when not given), then `rule`. */
export function withRequired<R>(required: string | undefined, rule: R) {
  return [...(required ? [{ required: true, message: required }] : []), rule]
}

const figure = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 })

/** A number field's bounds as a rule (an empty field passes, as in `zodRule`): 「不能小于 0」, 「不能大于 3,650」. */
export function rangeRule(min?: number, max?: number) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (isEmpty(value) || typeof value !== 'number') return
      if (min !== undefined && value < min) throw new Error(`不能小于 ${figure(min)}`)
      if (max !== undefined && value > max) throw new Error(`不能大于 ${figure(max)}`)
    },
  }
}
