import { Form, Input, Radio, Space, Switch } from 'antd'
import { useState } from 'react'
import { PlayerPopupCard } from '#app/components/player/player-popup.tsx'
import type { StaffPopup } from '#server/modules/learning/popups-admin.schema.ts'
import { PopupCreate } from '#shared/api/admin-popups.ts'
import { api } from '../lib/client.ts'
import { actionsColumn, idColumn, onOffColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, tableKey } from '../lib/console-table.tsx'
import { useWrite } from '../lib/editing.ts'
import { NumberField } from '../lib/fields.tsx'
import { FormDialog } from '../lib/form-dialog.tsx'
import { ListHeader } from '../lib/list-header.tsx'
import { useMe } from '../lib/me.ts'
import { PhonePreview } from '../lib/phone-preview.tsx'
import { zodRule } from '../lib/zod-rule.ts'

type Values = Pick<StaffPopup, 'target' | 'target_id' | 'at_second' | 'title' | 'content' | 'active'> & {
  image_url: string
  link: string
}

const popupsKey = tableKey('/admin/popups')
const popupStates = [
  { value: 'on', label: '启用' },
  { value: 'off', label: '已停用' },
]
const field = (name: keyof typeof PopupCreate.shape, toApi?: (v: unknown) => unknown) =>
  zodRule(PopupCreate.shape[name], toApi)
const orNull = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null)

/** The form's values as the API's body (the same schema validates both). */
function toBody(v: Values) {
  return { ...v, content: v.content ?? '', image_url: orNull(v.image_url), link: orNull(v.link) }
}

const blank: Values = {
  target: 'course',
  target_id: undefined as unknown as number,
  at_second: 5,
  title: '',
  content: '',
  image_url: '',
  link: '',
  active: true,
}

/** The card as the player draws it over the top of the video, from the form's values as they are typed. */
function Preview() {
  const form = Form.useFormInstance<Values>()
  const v = (Form.useWatch([], form) ?? blank) as Partial<Values>
  // What the server would refuse is left out, as the player leaves out links it must not follow.
  const valid = (name: 'image_url' | 'link') => PopupCreate.shape[name].safeParse(orNull(v[name])).data ?? null
  return (
    <PhonePreview label="学员在播放器里看到的样子（390 宽）">
      <div className="zx-console-phone-video">
        {v.title?.trim() ? (
          <PlayerPopupCard
            popup={{
              id: 0,
              at_second: v.at_second ?? 0,
              title: v.title.trim(),
              content: v.content?.trim() ?? '',
              image: valid('image_url'),
              link: valid('link'),
            }}
            onOpen={() => {}}
            onClose={() => {}}
          />
        ) : null}
      </div>
    </PhonePreview>
  )
}

/**
 * The player's popups (a card at a second of a video, or of every video of a course): the list with where each
 * shows and its taps, adding and changing one with a preview as the player draws it, switching off and removing.
 * Learners see a change on their next video open.
 */
export default function Popups() {
  const confirm = useDangerConfirm()
  const edit = useMe().may('marketing.edit')
  const [open, setOpen] = useState<StaffPopup | 'new' | null>(null)
  const [form] = Form.useForm<Values>()
  const save = useWrite(
    ({ id, body }: { id?: number; body: object }) =>
      id ? api.patch<StaffPopup>(`/admin/popups/${id}`, body) : api.post<StaffPopup>('/admin/popups', body),
    (p) => `已保存弹窗「${p.title}」`,
    [popupsKey],
  )
  const remove = useWrite((p: StaffPopup) => api.delete(`/admin/popups/${p.id}`), '已删除', [popupsKey])
  const show = (p: StaffPopup | 'new') => {
    form.setFieldsValue(p === 'new' ? blank : { ...p, image_url: p.image_url ?? '', link: p.link ?? '' })
    setOpen(p)
  }

  return (
    <>
      <ListHeader title="播放器弹窗" add={edit && { label: '新建弹窗', onClick: () => show('new') }} error={null} />
      <ConsoleTable<StaffPopup>
        path="/admin/popups"
        search="播放器弹窗的标题"
        filters={[
          { name: 'course_id', label: '课程 ID', type: 'text' },
          { name: 'video_id', label: '视频 ID', type: 'text' },
          { name: 'state', label: '状态', type: 'select', options: popupStates },
        ]}
        empty="还没有播放器弹窗。点“新建弹窗”，在课程的某一秒弹出学习群、优惠券等卡片。"
        columns={[
          idColumn<StaffPopup>(),
          { title: '标题', dataIndex: 'title' },
          {
            title: '出现在',
            key: 'target',
            render: (_, p) => `${p.target === 'course' ? '课程' : '视频'} ${p.target_id}「${p.target_title}」`,
          },
          { title: '第几秒', dataIndex: 'at_second', key: 'at_second', sorter: true },
          onOffColumn<StaffPopup>('状态', 'active', '启用', '已停用'),
          { title: '点击', dataIndex: 'clicks', align: 'right' },
          ...actionsColumn<StaffPopup>((p) => (
            <>
              <a onClick={() => show(p)}>{edit ? '编辑' : '查看'}</a>
              {edit && (
                <a onClick={() => save.mutate({ id: p.id, body: { active: !p.active } })}>
                  {p.active ? '停用' : '启用'}
                </a>
              )}
              {edit && (
                <a
                  className="zx-console-danger"
                  onClick={() =>
                    confirm({
                      title: `删除弹窗「${p.title}」`,
                      content: `删除后播放器不再弹出它，它的 ${p.clicks} 次点击记录也一并删除。只想暂时不弹，请用“停用”。`,
                      okText: '确认删除',
                      run: () => remove.mutateAsync(p),
                    })
                  }
                >
                  删除
                </a>
              )}
            </>
          )),
        ]}
      />
      <FormDialog<Values>
        title={open === 'new' ? '新建播放器弹窗' : `编辑弹窗 ${open?.id ?? ''}`}
        open={open !== null}
        form={form}
        name="player_popup"
        width={980}
        save={{
          isPending: save.isPending,
          mutateAsync: (v: Values) => save.mutateAsync({ id: open === 'new' ? undefined : open?.id, body: toBody(v) }),
        }}
        onClose={() => setOpen(null)}
        readOnly={!edit}
      >
        <div className="zx-console-split">
          <div>
            <Space wrap align="start">
              <Form.Item label="出现在" name="target" rules={[field('target')]}>
                <Radio.Group
                  options={[
                    { value: 'course', label: '课程的每个视频' },
                    { value: 'video', label: '单个视频' },
                  ]}
                />
              </Form.Item>
              <NumberField label="课程或视频 ID" name="target_id" rule={field('target_id')} min={1} />
              <NumberField label="第几秒弹出" name="at_second" rule={field('at_second')} min={0} max={36000} />
            </Space>
            <Form.Item label="标题" name="title" rules={[field('title')]}>
              <Input maxLength={30} showCount />
            </Form.Item>
            <Form.Item label="内容（纯文本）" name="content" rules={[field('content')]}>
              <Input.TextArea rows={3} maxLength={200} showCount />
            </Form.Item>
            <Form.Item label="图片地址（可空）" name="image_url" rules={[field('image_url', orNull)]}>
              <Input placeholder="https://… 或 /media/…" />
            </Form.Item>
            <Form.Item
              label="点“查看”打开（站内路径或 http(s) 链接；空：没有按钮）"
              name="link"
              rules={[field('link', orNull)]}
            >
              <Input placeholder="/vip 或 https://…" />
            </Form.Item>
            <Form.Item label="启用" name="active" valuePropName="checked">
              <Switch />
            </Form.Item>
          </div>
          <Preview />
        </div>
      </FormDialog>
    </>
  )
}
