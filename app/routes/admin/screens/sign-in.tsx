import { WechatOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Divider, Form, Input, Space } from 'antd'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { countdownLabel, useCountdown } from '#app/lib/countdown.ts'
import { checkPhone, CODE_MAX_LENGTH } from '#app/lib/validators.ts'
import { api } from '../lib/client.ts'
import { saveToken, WECHAT_SIGN_IN } from '../lib/token.ts'
import { validFields } from '../lib/valid-fields.ts'

/** Console sign-in: the same SMS code (or WeChat) sign-in as learners; only staff get past /api/admin/me. */
export default function SignIn() {
  const { message } = App.useApp()
  const [form] = Form.useForm<{ phone: string; code: string }>()
  const [busy, setBusy] = useState(false)
  const navigate = useNavigate()
  const client = useQueryClient()
  const countdown = useCountdown()

  const send = async () => {
    if (!countdown.canRequest) return
    const valid = await validFields(form, ['phone'])
    if (!valid) return // the field shows why
    const { phone } = valid
    countdown.start()
    try {
      await api.post('/send_code', { phone })
      message.success('验证码已发送')
    } catch (e) {
      countdown.reset()
      form.setFields([{ name: 'phone', errors: [(e as Error).message] }])
    }
  }

  const submit = async ({ phone, code }: { phone: string; code: string }) => {
    setBusy(true)
    try {
      const session = await api.post<{ token: string; expire_in: number }>('/login', {
        phone,
        phone_code: code,
        platform: 1,
      })
      saveToken(session)
      await client.resetQueries({ queryKey: ['me'] })
      void navigate('/admin', { replace: true })
    } catch (e) {
      form.setFields([{ name: 'code', errors: [(e as Error).message] }])
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="zx-console-center">
      <Card title="自学 · 运营后台" className="zx-console-signin">
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            label="手机号"
            name="phone"
            rules={[
              {
                validator: async (_, value: string | undefined) => {
                  const { error } = checkPhone(value)
                  if (error) throw new Error(error)
                },
              },
            ]}
          >
            <Input inputMode="tel" maxLength={11} autoComplete="tel" placeholder="员工绑定的手机号" />
          </Form.Item>
          <Form.Item label="验证码" required>
            <Space.Compact block>
              <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }]}>
                <Input
                  inputMode="numeric"
                  maxLength={CODE_MAX_LENGTH}
                  placeholder={`${CODE_MAX_LENGTH} 位验证码`}
                  aria-label="验证码"
                />
              </Form.Item>
              <Button onClick={() => void send()} disabled={countdown.running}>
                {countdownLabel(countdown.left)}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            登录
          </Button>
        </Form>
        <Divider plain>或</Divider>
        <Button block icon={<WechatOutlined />} href={WECHAT_SIGN_IN}>
          微信登录
        </Button>
      </Card>
    </div>
  )
}
