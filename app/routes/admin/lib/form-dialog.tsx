import { Form, Input, Modal, Radio, type FormInstance } from 'antd'
import type { ReactNode } from 'react'
import type { z } from 'zod'
import { zodRule } from './zod-rule.ts'

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
 * The console's add/edit dialog: a vertical form in a modal with 保存/取消. 保存 validates the fields, hands the
 * values to `save` (a mutation) and closes once it succeeds. Rendered while closed too, so the
 * screen can fill the form (setFieldsValue) before opening it.
 */
export function FormDialog<T>(props: {
  title: ReactNode
  open: boolean
  form: FormInstance<T>
  name: string
  /** The mutation 保存 runs with the form's values. */
  save: { isPending: boolean; mutateAsync: (values: T) => Promise<unknown> }
  onClose: () => void
  width?: number
  /** The ok button's text (保存) and whether it is red (a destructive action that asks for its reason). */
  okText?: string
  danger?: boolean
  /** The form's contents are unmounted while the dialog is closed (the screen resets the form on opening). */
  destroyOnHidden?: boolean
  children: ReactNode
  /** Shown under the form. */
  footnote?: ReactNode
}) {
  const { form, save, onClose } = props
  return (
    <Modal
      title={props.title}
      open={props.open}
      okText={props.okText ?? '保存'}
      okButtonProps={props.danger ? { danger: true } : undefined}
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={async () => {
        await save.mutateAsync(await form.validateFields())
        onClose()
      }}
      onCancel={onClose}
      destroyOnHidden={props.destroyOnHidden}
      forceRender
      width={props.width}
    >
      <Form form={form} name={props.name} layout="vertical">
        {props.children}
      </Form>
      {props.footnote}
    </Modal>
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

/** A dialog's reason field (why a refund is refused, a code voided…), checked by `schema`. */
export function ReasonField(props: { label: string; name: string; schema: z.ZodType; rows?: number }) {
  return (
    <Form.Item label={props.label} name={props.name} rules={[zodRule(props.schema)]}>
      <Input.TextArea rows={props.rows ?? 2} maxLength={200} showCount />
    </Form.Item>
  )
}
