import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Drawer, Form, Input, InputNumber, Radio, Select, Space, Switch, Tag, Typography } from 'antd'
import { lazy, Suspense, useDeferredValue, useState } from 'react'
import type { Overlay, StaffOverlay } from '#server/modules/overlays/overlays.schema.ts'
import { OverlayCreate } from '#shared/api/admin-overlays.ts'
import { api } from '../lib/client.ts'
import { actionsColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { showUnderField, validFields } from '../lib/valid-fields.ts'
import { ConsoleTable } from '../lib/console-table.tsx'
import { fromLocalInput, toLocalInput } from '../lib/datetime.ts'
import { AddButton } from '../lib/list-header.tsx'
import { when } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { PhonePreview } from '../lib/phone-preview.tsx'
import { zodRule } from '../lib/zod-rule.ts'
import { OverlayCapsPanel } from './overlay-caps.tsx'

// The learner's own overlay component, drawn in the preview exactly as the learner pages draw it.
const OverlayView = lazy(() => import('#app/components/system-overlay/overlay-view.tsx'))
const noop = () => {}

const stateNames: Record<StaffOverlay['state'], { label: string; color?: string }> = {
  live: { label: '展示中', color: 'green' },
  scheduled: { label: '待开始', color: 'blue' },
  ended: { label: '已结束' },
  off: { label: '已停用', color: 'default' },
}

interface Values {
  type: 1 | 2
  name: string
  content: string
  button_text: string
  image_url: string
  jump_type: 'none' | 1 | 2 | 4
  course_id?: number
  category_id?: number
  url?: string
  starts_at: string
  ends_at: string
  sort: number
  urgent: boolean
  active: boolean
}

/** The form's values as the API's body (the same schema validates both). */
function toBody(v: Partial<Values>) {
  const jump =
    v.jump_type === 1
      ? { jump_type: 1, course_id: v.course_id }
      : v.jump_type === 2
        ? { jump_type: 2, category_id: v.category_id }
        : v.jump_type === 4
          ? { jump_type: 4, url: v.url ?? '' }
          : { jump_type: null }
  return {
    type: v.type ?? 1,
    name: v.name ?? '',
    content: v.content ?? '',
    button_text: v.button_text || '我知道了',
    image_url: v.image_url || null,
    jump,
    starts_at: fromLocalInput(v.starts_at),
    ends_at: fromLocalInput(v.ends_at),
    sort: v.sort ?? 0,
    urgent: v.urgent ?? false,
    active: v.active ?? true,
  }
}

function toValues(o: StaffOverlay | null): Values {
  return {
    type: (o?.type ?? 1) as 1 | 2,
    name: o?.name ?? '',
    content: o?.content ?? '',
    button_text: o?.button_text ?? '我知道了',
    image_url: o?.image_url ?? '',
    jump_type: (o?.jump.jump_type ?? 'none') as Values['jump_type'],
    course_id: o?.jump.course_id,
    category_id: o?.jump.category_id,
    url: o?.jump.url,
    starts_at: toLocalInput(o?.starts_at),
    ends_at: toLocalInput(o?.ends_at),
    sort: o?.sort ?? 0,
    urgent: o?.urgent ?? false,
    active: o?.active ?? true,
  }
}

const field = (name: keyof typeof OverlayCreate.shape) => zodRule(OverlayCreate.shape[name])

/** The learner's view of a draft: the server sanitises it (POST /admin/overlays/preview), the learner's component draws it. */
function Preview({ values }: { values: Partial<Values> }) {
  const body = useDeferredValue(JSON.stringify(toBody(values)))
  const valid = OverlayCreate.safeParse(JSON.parse(body)).success
  const preview = useQuery({
    queryKey: ['overlay-preview', body],
    queryFn: () => api.post<Overlay>('/admin/overlays/preview', JSON.parse(body)),
    enabled: valid,
    placeholderData: (previous) => previous,
  })
  return (
    <PhonePreview label="学员在手机上看到的样子（390 宽）">
      {preview.data ? (
        <Suspense fallback={null}>
          <OverlayView overlay={preview.data} onClose={noop} onOpen={noop} />
        </Suspense>
      ) : null}
    </PhonePreview>
  )
}

/**
 * System overlays (site pop-ups): the list by state, adding and changing one with a live preview as learners see
 * it, scheduling, the urgent flag and switching off. Learners see a change on their next page.
 */
export default function Overlays() {
  const { message } = App.useApp()
  const confirm = useDangerConfirm()
  const { may } = useMe()
  const client = useQueryClient()
  const [editing, setEditing] = useState<StaffOverlay | 'new' | null>(null)
  const [form] = Form.useForm<Values>()
  const values = Form.useWatch([], form) as Partial<Values> | undefined
  const edit = may('marketing.edit')

  const save = useMutation({
    mutationFn: async ({ id, body }: { id?: number; body: object }) =>
      id ? api.patch<StaffOverlay>(`/admin/overlays/${id}`, body) : api.post<StaffOverlay>('/admin/overlays', body),
    onSuccess: (o) => {
      message.success(`已保存弹窗「${o.name}」（${stateNames[o.state].label}）`)
      setEditing(null)
      void client.invalidateQueries({ queryKey: ['table', 'overlays'] })
    },
    onError: (e) => message.error(e.message),
  })

  const open = (o: StaffOverlay | 'new') => {
    form.setFieldsValue(toValues(o === 'new' ? null : o))
    setEditing(o)
  }
  const submit = async () => {
    const v = await validFields(form)
    if (!v) return
    const body = toBody(v)
    const parsed = OverlayCreate.safeParse(body)
    if (!parsed.success) return void message.error(parsed.error.issues[0]?.message ?? '请检查表单')
    // A refusal is shown (onError), under its field too when it names one; the drawer stays open.
    save.mutate({ id: editing === 'new' ? undefined : editing?.id, body }, { onError: (e) => showUnderField(form, e) })
  }
  const switchOff = (o: StaffOverlay) =>
    confirm({
      title: '停用弹窗',
      content: `停用后学员不再看到「${o.name}」，可以随时重新启用。`,
      okText: '停用',
      run: () => save.mutateAsync({ id: o.id, body: { active: false } }),
    })

  const jumpType = values?.jump_type ?? 'none'
  return (
    <>
      <Typography.Title level={4}>系统弹窗</Typography.Title>
      <OverlayCapsPanel edit={edit} />
      <ConsoleTable<StaffOverlay>
        id="overlays"
        rowKey="id"
        path="/admin/overlays"
        search="弹窗标题"
        filters={[
          {
            name: 'state',
            label: '状态',
            type: 'select',
            options: Object.entries(stateNames).map(([value, s]) => ({ value, label: s.label })),
          },
        ]}
        empty="还没有弹窗。点“新建弹窗”添加一个，学员下次打开页面就会看到。"
        toolbar={edit && <AddButton label="新建弹窗" onClick={() => open('new')} />}
        columns={[
          { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, width: 70 },
          { title: '标题', dataIndex: 'name' },
          { title: '类型', dataIndex: 'type', render: (t: number) => (t === 2 ? '图片' : '文字') },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: StaffOverlay['state'], o) => (
              <Space size={4}>
                <Tag color={stateNames[s].color}>{stateNames[s].label}</Tag>
                {o.urgent && <Tag color="red">紧急</Tag>}
              </Space>
            ),
          },
          {
            title: '时间',
            key: 'starts_at',
            sorter: true,
            render: (_, o) => `${o.starts_at ? when(o.starts_at) : '立即'} — ${o.ends_at ? when(o.ends_at) : '不限'}`,
          },
          { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true },
          { title: '点击', dataIndex: 'clicks', align: 'right' },
          ...actionsColumn<StaffOverlay>((o) => (
            <>
              <a onClick={() => open(o)}>{edit ? '编辑' : '查看'}</a>
              {edit && o.active && <a onClick={() => switchOff(o)}>停用</a>}
              {edit && !o.active && <a onClick={() => save.mutate({ id: o.id, body: { active: true } })}>启用</a>}
            </>
          )),
        ]}
      />
      <Drawer
        title={editing === 'new' ? '新建弹窗' : `编辑弹窗 ${editing?.id ?? ''}`}
        open={editing !== null}
        onClose={() => setEditing(null)}
        size={1000}
        destroyOnHidden
        extra={
          edit && (
            <Button type="primary" loading={save.isPending} onClick={submit}>
              保存
            </Button>
          )
        }
      >
        <div className="zx-console-split">
          <Form form={form} layout="vertical" disabled={!edit}>
            <Form.Item label="类型" name="type">
              <Radio.Group
                options={[
                  { value: 1, label: '文字通知' },
                  { value: 2, label: '图片海报' },
                ]}
              />
            </Form.Item>
            <Form.Item label="标题" name="name" rules={[field('name')]}>
              <Input maxLength={30} showCount />
            </Form.Item>
            <Form.Item label="内容（可用 p、b、a、img 等简单标签）" name="content" rules={[field('content')]}>
              <Input.TextArea rows={4} />
            </Form.Item>
            <Space wrap>
              <Form.Item label="按钮文字" name="button_text" rules={[field('button_text')]}>
                <Input maxLength={10} />
              </Form.Item>
              <Form.Item label="图片地址（图片海报必填）" name="image_url">
                <Input style={{ width: 'min(320px, calc(100vw - 80px))' }} placeholder="https://… 或 /media/…" />
              </Form.Item>
            </Space>
            <Space wrap align="start">
              <Form.Item label="点击按钮后" name="jump_type">
                <Select
                  style={{ width: 140 }}
                  options={[
                    { value: 'none', label: '仅关闭' },
                    { value: 1, label: '打开课程' },
                    { value: 2, label: '打开分类' },
                    { value: 4, label: '打开链接' },
                  ]}
                />
              </Form.Item>
              {jumpType === 1 && (
                <Form.Item label="课程 ID" name="course_id" rules={[{ required: true, message: '请填写课程 ID' }]}>
                  <InputNumber min={1} />
                </Form.Item>
              )}
              {jumpType === 2 && (
                <Form.Item label="分类 ID" name="category_id" rules={[{ required: true, message: '请填写分类 ID' }]}>
                  <InputNumber min={1} />
                </Form.Item>
              )}
              {jumpType === 4 && (
                <Form.Item label="链接" name="url" rules={[{ required: true, message: '请填写链接' }]}>
                  <Input style={{ width: 'min(300px, calc(100vw - 80px))' }} placeholder="https://" />
                </Form.Item>
              )}
            </Space>
            <Space wrap>
              <Form.Item label="开始（北京时间，空：立即）" name="starts_at">
                <Input type="datetime-local" />
              </Form.Item>
              <Form.Item label="结束（空：不限）" name="ends_at">
                <Input type="datetime-local" />
              </Form.Item>
            </Space>
            <Space wrap size="large">
              <Form.Item label="排序（小的先弹）" name="sort" rules={[field('sort')]}>
                <InputNumber min={0} max={10000} />
              </Form.Item>
              <Form.Item label="紧急（本次访问已弹过也弹）" name="urgent" valuePropName="checked">
                <Switch />
              </Form.Item>
              <Form.Item label="启用" name="active" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Space>
          </Form>
          <Preview values={values ?? {}} />
        </div>
      </Drawer>
    </>
  )
}
