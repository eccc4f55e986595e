import { Form, Modal, type FormInstance } from 'antd'
import type { ReactNode } from 'react'

/**
 * The console's add/edit dialog: a vertical form in a modal with 保存/取消. 保存 validates the fields, hands the
 * values to `onSave` (a mutation's mutateAsync) and closes once it succeeds. Rendered while closed too, so the
 * screen can fill the form (setFieldsValue) before opening it.
 */
export function FormDialog<T>(props: {
  title: ReactNode
  open: boolean
  form: FormInstance<T>
  name: string
  saving: boolean
  onSave: (values: T) => Promise<unknown>
  onClose: () => void
  width?: number
  /** The form's contents are unmounted while the dialog is closed (the screen resets the form on opening). */
  destroyOnHidden?: boolean
  children: ReactNode
  /** Shown under the form. */
  footnote?: ReactNode
  /** Shown, not changed: the fields and 保存 are disabled (staff who may read but not edit). */
  readOnly?: boolean
}) {
  const { form, onSave, onClose } = props
  return (
    <Modal
      title={props.title}
      open={props.open}
      okText="保存"
      cancelText="取消"
      confirmLoading={props.saving}
      okButtonProps={{ disabled: props.readOnly }}
      onOk={async () => {
        await onSave(await form.validateFields())
        onClose()
      }}
      onCancel={onClose}
      destroyOnHidden={props.destroyOnHidden}
      forceRender
      width={props.width}
    >
      <Form form={form} name={props.name} layout="vertical" disabled={props.readOnly}>
        {props.children}
      </Form>
      {props.footnote}
    </Modal>
  )
}
