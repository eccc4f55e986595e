import { App, Form, Input, Modal } from 'antd'
import { useState, type ReactNode } from 'react'
import type { z } from 'zod'
import { refusalText, validFields } from './valid-fields.ts'
import { zodRule } from './zod-rule.ts'

/** What a destructive action asks: its title and text name what it does; the reason is checked by `schema`. */
export interface ReasonAsk {
  title: string
  content: ReactNode
  okText: string
  /** false: an action that takes nothing away (showing a comment again), asked with a plain OK button. */
  danger?: false
  label: string
  schema: z.ZodType
  run: (reason: string) => Promise<unknown>
}

/**
 * A confirmation that asks why (revoking a course, signing a member out): `const [ask, dialog] = useReasonDialog()`,
 * render `dialog`, call `ask({...})`. The action runs on OK; its error shows under the field.
 */
export function useReasonDialog(): [(a: ReasonAsk) => void, ReactNode] {
  const { message } = App.useApp()
  const [form] = Form.useForm<{ reason: string }>()
  const [asked, setAsked] = useState<ReasonAsk | null>(null)
  const [busy, setBusy] = useState(false)

  const ok = async () => {
    if (!asked) return
    const values = await validFields(form)
    if (!values) return
    const { reason } = values
    setBusy(true)
    try {
      await asked.run(reason.trim())
      message.success(`${asked.title}：已完成`)
      setAsked(null)
    } catch (e) {
      // The dialog stays open with the server's words under the reason (its one field).
      form.setFields([{ name: 'reason', errors: [refusalText(e)] }])
    } finally {
      setBusy(false)
    }
  }

  const dialog = (
    <Modal
      title={asked?.title}
      open={asked !== null}
      okText={asked?.okText}
      okButtonProps={{ danger: asked?.danger ?? true }}
      cancelText="取消"
      confirmLoading={busy}
      onOk={ok}
      onCancel={() => setAsked(null)}
      destroyOnHidden
    >
      <div className="zx-reason-what">{asked?.content}</div>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          label={asked?.label}
          name="reason"
          rules={asked ? [{ required: true, message: `请填写${asked.label}` }, zodRule(asked.schema)] : []}
        >
          <Input.TextArea rows={3} maxLength={200} showCount autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  )
  return [(a) => setAsked(a), dialog]
}
