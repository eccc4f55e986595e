import { useQuery } from '@tanstack/react-query'
import { Form, Input, Segmented, Select, Space, Switch, Table, Tag } from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { HomeSectionCreate } from '#shared/api/admin-home.ts'
import { api } from '../../lib/client.ts'
import { useDangerConfirm } from '../../lib/confirm.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { ListHeader } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { moveButtons } from '../../lib/move-buttons.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { homeSectionKindNames, options } from '../catalogue/names.ts'
import { useWrite } from '../catalogue/use-catalogue.ts'
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
  const sections = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ list: Section[] }>('/admin/home/sections', { feed }),
  })
  const list = sections.data?.list ?? []
  const ids = list.map((s) => s.id)
  const [open, setOpen] = useState<Section | 'new' | null>(null)
  const [items, setItems] = useState<Section | null>(null)
  const [form] = Form.useForm<Values>()

  const save = useWrite(
    (v: Values) => {
      const body = { title: v.title, subtitle: v.subtitle, more_link: v.more_link || null }
      return open === 'new' || open === null
        ? api.post<Section>('/admin/home/sections', { ...body, feed, kind: v.kind, visible: v.visible })
        : api.patch<Section>(`/admin/home/sections/${open.id}`, body)
    },
    '已保存，首页已更新',
    [key],
  )
  const publish = useWrite(
    (s: Section) => api.patch<Section>(`/admin/home/sections/${s.id}`, { visible: !s.visible }),
    (s) => (s.visible ? `「${s.title || homeSectionKindNames[s.kind]}」已发布` : '已撤下'),
    [key],
  )
  const order = useWrite(
    (next: number[]) => api.post(`/admin/home/sections/order?feed=${feed}`, { ids: next }),
    '已调整顺序',
    [key],
  )
  const remove = useWrite((s: Section) => api.delete(`/admin/home/sections/${s.id}`), '已删除栏目', [key])
  const name = (s: Section) => s.title || homeSectionKindNames[s.kind]

  const show = (s: Section | 'new') => {
    form.resetFields()
    form.setFieldsValue(
      s === 'new'
        ? { kind: 'courses', title: '', subtitle: '', more_link: '', visible: false }
        : { kind: s.kind, title: s.title, subtitle: s.subtitle, more_link: s.more_link ?? '', visible: s.visible },
    )
    setOpen(s)
  }

  return (
    <>
      <ListHeader
        title="首页栏目"
        extra={<Segmented options={feeds} value={feed} onChange={(v) => setSearch({ feed: String(v) })} />}
        add={edit && { label: '添加栏目', onClick: () => show('new') }}
        error={sections.error}
      />
      <div className="zx-console-table">
        <Table<Section>
          rowKey="id"
          dataSource={list}
          loading={sections.isFetching}
          pagination={false}
          locale={{ emptyText: '这个首页还没有栏目。点「添加栏目」。' }}
          columns={[
            { title: '顺序', key: 'n', width: 70, render: (_, __, i) => i + 1 },
            { title: '类型', dataIndex: 'kind', width: 110, render: (k: string) => homeSectionKindNames[k] ?? k },
            { title: '标题', dataIndex: 'title', render: (t: string) => t || '—' },
            { title: '副标题', dataIndex: 'subtitle', ellipsis: true, render: (t: string) => t || '—' },
            {
              title: '状态',
              dataIndex: 'visible',
              width: 90,
              render: (v: boolean) => (v ? <Tag color="green">已发布</Tag> : <Tag>未发布</Tag>),
            },
            {
              title: '操作',
              key: 'a',
              width: 340,
              render: (_, s, i) => (
                <Space>
                  <a onClick={() => setItems(s)}>{edit ? '管理内容' : '查看内容'}</a>
                  {edit && (
                    <>
                      {moveButtons(ids, i, order.mutate)}
                      <a onClick={() => show(s)}>编辑</a>
                      {s.visible ? (
                        <a
                          onClick={() =>
                            confirm({
                              title: `撤下「${name(s)}」`,
                              content: '撤下后学员首页马上不再显示这个栏目。',
                              okText: '确认撤下',
                              onOk: () => publish.mutateAsync(s),
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
                            onOk: () => remove.mutateAsync(s),
                          })
                        }
                      >
                        删除
                      </a>
                    </>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </div>
      <FormDialog
        title={open === 'new' ? '添加栏目' : '编辑栏目'}
        open={open !== null}
        form={form}
        name="section"
        saving={save.isPending}
        onSave={save.mutateAsync}
        onClose={() => setOpen(null)}
      >
        <Form.Item label="类型" name="kind">
          <Select disabled={open !== 'new'} options={options(homeSectionKindNames)} />
        </Form.Item>
        <Form.Item label="标题" name="title" rules={[zodRule(HomeSectionCreate.shape.title)]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item label="副标题" name="subtitle" rules={[zodRule(HomeSectionCreate.shape.subtitle)]}>
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item
          label="“更多”链接"
          name="more_link"
          rules={[zodRule(HomeSectionCreate.shape.more_link, (v) => v || null)]}
          extra="站内路径如 /boutique?cate=1，不填则不显示“更多”"
        >
          <Input />
        </Form.Item>
        {open === 'new' && (
          <Form.Item
            label="立即发布"
            name="visible"
            valuePropName="checked"
            extra="不发布则学员看不到，可先添加内容再发布"
          >
            <Switch />
          </Form.Item>
        )}
      </FormDialog>
      <FeedItems section={items} edit={edit} onClose={() => setItems(null)} />
    </>
  )
}
