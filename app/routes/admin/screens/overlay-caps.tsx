import { useQuery } from '@tanstack/react-query'
import { Alert, Button } from 'antd'
import { OverlayCapsSettings } from '#shared/api/admin-overlays.ts'
import { OVERLAY_CAP_BOUNDS, type OverlayCaps } from '#shared/overlay-caps.ts'
import { api } from '../lib/client.ts'
import { useEditor, useWrite } from '../lib/editing.ts'
import { NumberField, SwitchField } from '../lib/fields.tsx'
import { FormDialog } from '../lib/form-dialog.tsx'
import { zodRule } from '../lib/zod-rule.ts'

const key = ['overlay-caps']
const url = '/admin/settings/overlay-caps'
/** A cap's field: its name, its rule from the API's schema and its bounds. */
const field = (name: keyof typeof OVERLAY_CAP_BOUNDS) => ({
  name,
  rule: zodRule(OverlayCapsSettings.shape[name]),
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
  const editor = useEditor<OverlayCaps, OverlayCaps>('overlay_caps', (c) => c ?? {})
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
            <Button size="small" onClick={() => editor.open(caps.data ?? null)}>
              修改频次上限
            </Button>
          )
        }
      />
      <FormDialog<OverlayCaps> {...editor.dialog} title="弹窗频次上限" save={save}>
        <NumberField label="每个页面的弹窗数（关掉一个再弹下一个）" {...field('per_page')} />
        <NumberField label="每次访问的弹窗数" {...field('per_session')} />
        <SwitchField label="紧急弹窗不受每次访问的上限" name="urgent_exempt" />
        <NumberField label="看过后多少天内不再弹出" {...field('seen_days')} />
      </FormDialog>
    </>
  )
}
