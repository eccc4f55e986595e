import { App, Form, Input, Modal, theme } from 'antd'
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react'
import { api, hasStepUp, rememberStepUp } from './client.ts'
import { refusalText, validFields } from './valid-fields.ts'

type Ask = () => Promise<boolean>
const StepUpContext = createContext<Ask>(async () => false)

/**
 * Sensitive actions (refund approval, role changes, exports) ask for a fresh SMS code: `const confirm =
 * useStepUp(); if (await confirm()) …`. A live proof (5 minutes) is used without asking again.
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const { message } = App.useApp()
  const [open, setOpen] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [form] = Form.useForm<{ code: string }>()
  const settle = useRef<((ok: boolean) => void) | null>(null)
  // Over every dialog, the confirmation that asked for it included (antd puts confirmations at base + 1000 and
  // messages at base + 1010): the confirmation waits, open, for the code and then the action.
  const zIndex = theme.useToken().token.zIndexPopupBase + 1005

  const ask = useCallback<Ask>(() => {
    if (hasStepUp()) return Promise.resolve(true)
    setSentTo(null)
    form.resetFields()
    setOpen(true)
    return new Promise((resolve) => (settle.current = resolve))
  }, [form])

  const close = (ok: boolean) => {
    setOpen(false)
    settle.current?.(ok)
    settle.current = null
  }

  const send = async () => {
    try {
      const { phone } = await api.post<{ phone: string }>('/admin/step-up/send_code')
      setSentTo(phone)
      message.success(`验证码已发送至 ${phone}`)
    } catch (e) {
      message.error((e as Error).message)
    }
  }

  const confirm = async () => {
    const values = await validFields(form)
    if (!values) return
    const { code } = values
    setBusy(true)
    try {
      const got = await api.post<{ proof: string; expires_in: number }>('/admin/step-up', { code })
      rememberStepUp(got.proof, got.expires_in)
      close(true)
    } catch (e) {
      form.setFields([{ name: 'code', errors: [refusalText(e)] }])
    } finally {
      setBusy(false)
    }
  }

  return (
    <StepUpContext.Provider value={ask}>
      {children}
      <Modal
        title="短信验证"
        open={open}
        okText="验证并继续"
        cancelText="取消"
        confirmLoading={busy}
        onOk={confirm}
        onCancel={() => close(false)}
        destroyOnHidden
        zIndex={zIndex}
      >
        <p>这是敏感操作，请输入发送到你绑定手机的验证码（5 分钟内有效，期间无需重复验证）。</p>
        <Form form={form} layout="vertical">
          <Form.Item label="验证码" required>
            <div className="zx-console-code-row">
              <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }]}>
                <Input inputMode="numeric" maxLength={6} placeholder="4 位验证码" aria-label="验证码" />
              </Form.Item>
              <a onClick={send} role="button">
                {sentTo ? '重新发送' : '获取验证码'}
              </a>
            </div>
          </Form.Item>
        </Form>
      </Modal>
    </StepUpContext.Provider>
  )
}

export function useStepUp() {
  return useContext(StepUpContext)
}
