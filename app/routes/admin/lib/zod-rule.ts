import type { z } from 'zod'

/**
 * An antd Form rule from the API's own zod schema: the field is checked by the same schema the server uses, and
 * its message is the schema's (e.g. "请输入 11 位手机号"). `toApi` turns what the field holds into what the API
 * takes first (yuan typed → fen sent; an empty field → null).
 */
export function zodRule(schema: z.ZodType, toApi: (value: unknown) => unknown = (v) => v) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
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
    validator: async () => {
      const result = schema.safeParse(toBody(form.getFieldsValue(true)))
      const issue = result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)
      if (issue) throw new Error(issue.message)
    },
  })
}

/** A field's rules: `required`'s message when it is left empty (none when not given), then `rule`. */
export function withRequired<R>(required: string | undefined, rule: R) {
  return [...(required ? [{ required: true, message: required }] : []), rule]
}
