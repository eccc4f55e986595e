import { Form, Segmented, Select } from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { HomeSectionCreate, sectionNeedsTitle } from '#shared/api/admin-home.ts'
import { api } from '../../lib/client.ts'
import { SwitchField, TextField } from '../../lib/fields.tsx'
import { actionsColumn, onOffColumn } from '../../lib/columns.tsx'
import { useDangerConfirm } from '../../lib/confirm.tsx'
import { options } from '../../lib/console-table.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { useMe } from '../../lib/me.ts'
import { OrderedListScreen, useOrderedList } from '../../lib/whole-list.tsx'

import { homeSectionKindNames } from '../catalogue/names.ts'
import { FeedItems, type Section } from './feed-items.tsx'

type Values = { kind: Section['kind']; title: string; subtitle: string; more_link: string; visible: boolean }
const feeds = [
  { value: 'v3', label: '首页（/）' },
  { value: 'v2', label: '简版首页（/index1）' },
]

/** The home feed: its sections in order, published or not, and what each shows (banners, shortcuts, courses). */
export default function HomeFeed() {
  const confirm = useDangerConfirm()
  const edit = useMe().may('marketing.edit')
  const [search, setSearch] = useSearchParams()
  const feed = (search.get('feed') ?? 'v3') as Section['feed']
  const key = ['storefront', 'sections', feed]
  const sections = useOrderedList<Section>(key, '/admin/home/sections', `/admin/home/sections/order?feed=${feed}`, {
    query: { feed },
  })
  const [items, setItems] = useState<Section | null>(null)
  const editor = useEditor<Section, Values>('section', (s) =>
    s
      ? { kind: s.kind, title: s.title, subtitle: s.subtitle, more_link: s.more_link ?? '', visible: s.visible }
      : { kind: 'courses', title: '', subtitle: '', more_link: '', visible: false },
  )
  const adding = editor.editing === null
  const kind = Form.useWatch('kind', editor.form)

  const save = useWrite(
    (v: Values) => {
      const body = { title: v.title, subtitle: v.subtitle, more_link: v.more_link || null }
      return editor.editing
        ? api.patch<Section>(`/admin/home/sections/${editor.editing.id}`, body)
        : api.post<Section>('/admin/home/sections', { ...body, feed, kind: v.kind, visible: v.visible })
    },
    (s: Section) => (s.visible ? '已保存，首页已更新' : '已保存。栏目未发布，学员还看不到，添加内容后点“发布”'),
    [key],
  )
  const publish = useWrite(
    (s: Section) => api.patch<Section>(`/admin/home/sections/${s.id}`, { visible: !s.visible }),
    (s) => (s.visible ? `「${s.title || homeSectionKindNames[s.kind]}」已发布` : '已撤下'),
    [key],
  )
  const remove = useWrite((s: Section) => api.delete(`/admin/home/sections/${s.id}`), '已删除栏目', [key])
  const name = (s: Section) => s.title || homeSectionKindNames[s.kind]

  return (
    <>
      <OrderedListScreen<Section>
        title="首页栏目"
        extra={<Segmented options={feeds} value={feed} onChange={(v) => setSearch({ feed: String(v) })} />}
        add={edit && { label: '添加栏目', onClick: () => editor.open(null) }}
        of={sections}
        numbered={70}
        empty="这个首页还没有栏目。点「添加栏目」。"
        columns={[
          { title: '类型', dataIndex: 'kind', width: 110, render: (k: string) => homeSectionKindNames[k] ?? k },
          { title: '标题', dataIndex: 'title', render: (t: string) => t || '—' },
          { title: '副标题', dataIndex: 'subtitle', ellipsis: true, render: (t: string) => t || '—' },
          { ...onOffColumn<Section>('状态', 'visible', '已发布', '未发布'), width: 90 },
          ...actionsColumn<Section>(
            (s, i) => (
              <>
                <a onClick={() => setItems(s)}>{edit ? '管理内容' : '查看内容'}</a>
                {edit && (
                  <>
                    {sections.move(i)}
                    <a onClick={() => editor.open(s)}>编辑</a>
                    {s.visible ? (
                      <a
                        onClick={() =>
                          confirm({
                            title: `撤下「${name(s)}」`,
                            content: '撤下后学员首页马上不再显示这个栏目。',
                            okText: '确认撤下',
                            run: () => publish.mutateAsync(s),
                          })
                        }
                      >
                        撤下
                      </a>
                    ) : (
                      <a onClick={() => publish.mutate(s)}>发布</a>
                    )}
                    <a
                      className="zx-console-danger"
                      onClick={() =>
                        confirm({
                          title: `删除栏目「${name(s)}」`,
                          content: '栏目和其中的全部内容都会删除，不能恢复。',
                          okText: '确认删除',
                          run: () => remove.mutateAsync(s),
                        })
                      }
                    >
                      删除
                    </a>
                  </>
                )}
              </>
            ),
            true,
            340,
          ),
        ]}
      />
      <FormDialog {...editor.dialog} title={adding ? '添加栏目' : '编辑栏目'} save={save}>
        <Form.Item label="类型" name="kind">
          <Select disabled={!adding} options={options(homeSectionKindNames)} />
        </Form.Item>
        <TextField
          label="标题"
          name="title"
          schema={HomeSectionCreate.shape.title}
          max={30}
          required={kind && sectionNeedsTitle(kind) ? '请填写标题' : undefined}
          extra={kind && !sectionNeedsTitle(kind) ? '轮播图和快捷入口在首页不显示标题，可不填' : undefined}
        />
        <TextField label="副标题" name="subtitle" schema={HomeSectionCreate.shape.subtitle} max={60} />
        <TextField
          label="“更多”链接"
          name="more_link"
          schema={HomeSectionCreate.shape.more_link}
          toApi={(v) => v || null}
          extra="站内路径如 /boutique?cate=1，不填则不显示“更多”"
        />
        {adding && <SwitchField label="立即发布" name="visible" extra="不发布则学员看不到，可先添加内容再发布" />}
      </FormDialog>
      <FeedItems section={items} edit={edit} onClose={() => setItems(null)} />
    </>
  )
}
