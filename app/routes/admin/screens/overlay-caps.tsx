import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Form, InputNumber, Switch } from 'antd'
import { useState } from 'react'
import { OverlayCapsSettings } from '#shared/api/admin-overlays.ts'
import { OVERLAY_CAP_BOUNDS, type OverlayCaps } from '#shared/overlay-caps.ts'
import { api } from '../lib/client.ts'
import { useWrite } from '../lib/editing.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { zodRule } from '../lib/zod-rule.ts'

const key = ['overlay-caps']
const url = '/admin/settings/overlay-caps'
const rule = (name: keyof typeof OverlayCapsSettings.shape) => zodRule(OverlayCapsSettings.shape[name])
const bounds = (name: keyof typeof OVERLAY_CAP_BOUNDS) => ({
  min: OVERLAY_CAP_BOUNDS[name].min,
  max: OVERLAY_CAP_BOUNDS[name].max,
})

/** The caps in a sentence, as learners meet them. */
function describe(c: OverlayCaps) {
  const urgent = c.urgent_exempt ? '（标记“紧急”的除外）' : '（紧急弹窗也计入）'
  return `频次上限：每个页面最多 ${c.per_page} 个弹窗（关掉一个再弹下一个），每次访问最多 ${c.per_session} 个${urgent}；学员看过的弹窗 ${c.seen_days} 天内不再出现。交易、登录和表单页面不弹。`
}

/**
 * The overlays' frequency caps (a site setting): what learners get with every overlay list, within bounds; staff
 * who may edit change them in a dialog validated by the API's schema. Learners' next page applies a change.
 */
export function OverlayCapsPanel({ edit }: { edit: boolean }) {
  const caps = useQuery({ queryKey: key, queryFn: () => api.get<OverlayCaps>(url) })
  const [open, setOpen] = useState(false)
  const [form] = Form.useForm<OverlayCaps>()
  const save = useWrite((v: OverlayCaps) => api.put<OverlayCaps>(url, v), '已保存频次上限，学员打开下一个页面即生效', [
    key,
  ])
  return (
    <>
      <Alert
        type={caps.error ? 'error' : 'info'}
        showIcon
        style={{ marginBottom: 16 }}
        message={caps.data ? describe(caps.data) : caps.error ? `频次上限加载失败：${caps.error.message}` : '…'}
        action={
          edit &&
          caps.data && (
            <Button
              size="small"
              onClick={() => {
                form.setFieldsValue(caps.data)
                setOpen(true)
              }}
            >
              修改频次上限
            </Button>
          )
        }
      />
      <FormDialog<OverlayCaps>
        title="弹窗频次上限"
        open={open}
        form={form}
        name="overlay_caps"
        save={save}
        onClose={() => setOpen(false)}
      >
        <Form.Item label="每个页面的弹窗数（关掉一个再弹下一个）" name="per_page" rules={[rule('per_page')]}>
          <InputNumber {...bounds('per_page')} />
        </Form.Item>
        <Form.Item label="每次访问的弹窗数" name="per_session" rules={[rule('per_session')]}>
          <InputNumber {...bounds('per_session')} />
        </Form.Item>
        <Form.Item label="紧急弹窗不受每次访问的上限" name="urgent_exempt" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label="看过后多少天内不再弹出" name="seen_days" rules={[rule('seen_days')]}>
          <InputNumber {...bounds('seen_days')} />
        </Form.Item>
      </FormDialog>
    </>
  )
}
