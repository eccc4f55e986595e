import { Form, Modal, type FormInstance } from 'antd'
import type { ReactNode } from 'react'
import { showUnderField, validFields } from './valid-fields.ts'

/** A dialog's title: `新建讲师` while adding (`add` 添加 for some), `编辑讲师：张三` while editing 张三. */
export const editTitle = (noun: string, editing: string | undefined, add = '新建') =>
  editing === undefined ? `${add}${noun}` : `编辑${noun}：${editing}`

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
  /** Shown, not changed: the fields and 保存 are disabled (staff who may read but not edit). */
  readOnly?: boolean
}) {
  const { form, save, onClose } = props
  return (
    <Modal
      title={props.title}
      open={props.open}
      okText={props.okText ?? '保存'}
      okButtonProps={{ danger: props.danger, disabled: props.readOnly }}
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={async () => {
        // An invalid form shows its messages under the fields, a refused save its message (useWrite): the dialog
        // stays open either way, and nothing is left rejected for the page.
        const values = await validFields(form)
        if (values === null) return
        const saved = await save.mutateAsync(values).then(
          () => true,
          (e: unknown) => {
            // A refusal about one field ("原价不能低于售价") goes under it too, when the form has it by that name.
            showUnderField(form, e)
            return false
          },
        )
        if (saved) onClose()
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
