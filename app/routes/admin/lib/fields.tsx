import { Form, Input, InputNumber, Radio, Switch } from 'antd'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import { rangeRule, zodRule } from './zod-rule.ts'

// The console forms' recurring fields, each checked by the API's own zod schema where it has one.

/** A form's choice of one of `names` (a names table: value → label), as radio buttons when `buttons`. */
export function RadioField(props: {
  label: string
  name: string
  names: Record<string, string>
  buttons?: boolean
  extra?: ReactNode
}) {
  return (
    <Form.Item label={props.label} name={props.name} extra={props.extra}>
      <Radio.Group
        options={Object.entries(props.names).map(([value, label]) => ({ value, label }))}
        optionType={props.buttons ? 'button' : undefined}
      />
    </Form.Item>
  )
}

/**
 * A text field checked by the API's own `schema` (`toApi` turns what it holds into what the API takes);
 * `required`: the message when it is left empty.
 */
export function TextField(props: {
  label: ReactNode
  name: string
  schema: z.ZodType
  max?: number
  required?: string
  placeholder?: string
  extra?: ReactNode
  toApi?: (value: unknown) => unknown
}) {
  const rules = [zodRule(props.schema, props.toApi)]
  return (
    <Form.Item
      label={props.label}
      name={props.name}
      extra={props.extra}
      rules={props.required ? [{ required: true, message: props.required }, ...rules] : rules}
    >
      <Input maxLength={props.max} placeholder={props.placeholder} />
    </Form.Item>
  )
}

/**
 * A number field checked by `rule` (zodRule of the API's schema), or within `min`…`max` when it has none;
 * `required`: the message when it is left empty. The box itself has no bounds: antd would quietly clamp a typed
 * −10 to the bound on blur and the form would save what nobody typed, so an out-of-range number stays as typed
 * and its message says why it is refused.
 */
export function NumberField(props: {
  label: ReactNode
  name: string
  rule?: ReturnType<typeof zodRule>
  min?: number
  max?: number
  precision?: number
  required?: string
  extra?: ReactNode
}) {
  const rules = [
    ...(props.required ? [{ required: true, message: props.required }] : []),
    props.rule ?? rangeRule(props.min, props.max),
  ]
  return (
    <Form.Item label={props.label} name={props.name} rules={rules} extra={props.extra}>
      <InputNumber precision={props.precision} />
    </Form.Item>
  )
}

/** A dialog's reason field (why a refund is refused, a code voided…), required, checked by `schema`. */
export function ReasonField(props: { label: string; name: string; schema: z.ZodType; rows?: number }) {
  return (
    <Form.Item
      label={props.label}
      name={props.name}
      rules={[{ required: true, message: `请填写${props.label}` }, zodRule(props.schema)]}
    >
      <Input.TextArea rows={props.rows ?? 2} maxLength={200} showCount />
    </Form.Item>
  )
}

/** An on/off field. */
export function SwitchField(props: { label: ReactNode; name: string; extra?: ReactNode }) {
  return (
    <Form.Item label={props.label} name={props.name} valuePropName="checked" extra={props.extra}>
      <Switch />
    </Form.Item>
  )
}
