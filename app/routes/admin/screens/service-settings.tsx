import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Form, Input, Spin, Typography } from 'antd'
import { useEffect } from 'react'
import { ServiceSettings as Schema, type ServiceSettings as Values } from '#shared/api/service-settings.ts'
import { api } from '../lib/client.ts'
import { SwitchField, TextField } from '../lib/fields.tsx'
import { ImageField } from '../lib/image-field.tsx'
import { when } from '../lib/format.ts'
import { showUnderField } from '../lib/valid-fields.ts'
import { zodRule } from '../lib/zod-rule.ts'

type Saved = Values & { updated_at: string | null }
/** What a WeCom customer-service link looks like. */
const WECOM_LINK = 'https://work.weixin.qq.com/kfid/…'
const rule = (name: keyof typeof Schema.shape) => zodRule(Schema.shape[name])

/**
 * One QR page's fields (/data/follow, /data/wwx): its QR code image (`<prefix>_qr_image`) and the sentence shown
 * under it (`<prefix>_text`).
 */
function QrPageFields(props: { page: string; heading: string; prefix: 'follow' | 'wwx'; qr: string; text: string }) {
  const { page, heading, prefix, qr, text } = props
  return (
    <>
      <Typography.Title level={5}>{`${heading}（${page}）`}</Typography.Title>
      <Form.Item label={qr} name={`${prefix}_qr_image`}>
        <ImageField label={qr} />
      </Form.Item>
      <Form.Item label={`${text}（二维码下方的一句话）`} name={`${prefix}_text`} rules={[rule(`${prefix}_text`)]}>
        <Input.TextArea rows={2} maxLength={200} showCount />
      </Form.Item>
    </>
  )
}

/**
 * Customer service: what the floating 客服 button, the consult button and the /customer pages show. Until saved
 * once, the configuration's links (SERVICE_URL, CONSULT_URL) apply. Learners see a saved change on their next page.
 */
export default function ServiceSettings() {
  const { message } = App.useApp()
  const client = useQueryClient()
  const [form] = Form.useForm<Values>()
  const query = useQuery({ queryKey: ['service-settings'], queryFn: () => api.get<Saved>('/admin/settings/service') })
  useEffect(() => {
    if (query.data) form.setFieldsValue({ ...query.data, qr_image: query.data.qr_image ?? '' })
  }, [query.data, form])

  const save = useMutation({
    mutationFn: (v: Values) => api.put<Saved>('/admin/settings/service', v),
    onSuccess: (saved) => {
      message.success('已保存，学员打开下一个页面即可看到')
      client.setQueryData(['service-settings'], saved)
    },
    onError: (e) => {
      // A refusal about one field goes under it too; the form keeps what was typed.
      showUnderField(form, e)
      message.error(e.message)
    },
  })

  if (query.isLoading) return <Spin />
  if (query.error) return <div className="zx-console-error">加载失败：{query.error.message}。请刷新重试。</div>
  return (
    <>
      <Typography.Title level={4}>客服设置</Typography.Title>
      <Card style={{ maxWidth: 720 }}>
        <Typography.Paragraph type="secondary">
          {query.data?.updated_at
            ? `上次保存：${when(query.data.updated_at)}`
            : '尚未保存过，当前使用部署配置中的默认链接。'}
        </Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) =>
            save.mutate({
              ...v,
              qr_image: v.qr_image || null,
              follow_qr_image: v.follow_qr_image || null,
              wwx_qr_image: v.wwx_qr_image || null,
            })
          }
          initialValues={{ consult_on_checkout: false, hours: '', phone: '', follow_text: '', wwx_text: '' }}
        >
          <TextField
            label="在线客服链接（企业微信客服，悬浮“客服”按钮打开）"
            name="service_url"
            schema={Schema.shape.service_url}
            placeholder={WECOM_LINK}
          />
          <TextField
            label="课程咨询链接（系统课、VIP 页面的“咨询”按钮）"
            name="consult_url"
            schema={Schema.shape.consult_url}
            placeholder={WECOM_LINK}
          />
          <SwitchField label="结算页也显示“咨询”按钮" name="consult_on_checkout" />
          <Form.Item
            label="企业微信二维码图片（显示在联系客服页，可留空）"
            name="qr_image"
            rules={[{ validator: (_r, v: string) => (v ? rule('qr_image').validator(_r, v) : Promise.resolve()) }]}
          >
            <Input placeholder="https://… 或 /media/…" />
          </Form.Item>
          <TextField label="服务时间" name="hours" schema={Schema.shape.hours} placeholder="每天 9:00–21:00" max={40} />
          <TextField
            label="客服电话（可留空）"
            name="phone"
            schema={Schema.shape.phone}
            placeholder="400-800-1234"
            max={20}
          />
          <QrPageFields
            page="/data/follow"
            heading="关注公众号"
            prefix="follow"
            qr="公众号关注二维码"
            text="关注说明"
          />
          <QrPageFields
            page="/data/wwx"
            heading="添加老师企业微信"
            prefix="wwx"
            qr="老师企业微信二维码"
            text="添加说明"
          />
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            保存
          </Button>
        </Form>
      </Card>
    </>
  )
}
