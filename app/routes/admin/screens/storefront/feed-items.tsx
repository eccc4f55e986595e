import { useQuery } from '@tanstack/react-query'
import { Drawer, Form, Input, Select } from 'antd'
import { useState } from 'react'
import { HomeItemCreate } from '#shared/api/admin-home.ts'
import type { ListPage } from '#shared/api/admin-list.ts'
import { api } from '../../lib/client.ts'
import { actionsColumn } from '../../lib/columns.tsx'
import { useDangerConfirm } from '../../lib/confirm.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { ImageField } from '../../lib/image-field.tsx'
import { AddButton } from '../../lib/list-header.tsx'
import { OrderedTable, useOrderedList } from '../../lib/whole-list.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { homeSectionKindNames } from '../catalogue/names.ts'
import type { Course } from '../catalogue/use-catalogue.ts'

export type Section = {
  id: number
  feed: 'v3' | 'v2'
  kind: 'banner' | 'shortcuts' | 'courses' | 'grid' | 'ranking'
  title: string
  subtitle: string
  more_link: string | null
  sort: number
  visible: boolean
}
type Item = {
  id: number
  course_id: number | null
  course_title: string | null
  title: string
  image_url: string | null
  link: string | null
}
type Values = { course_id?: number; title: string; image_url?: string; link?: string }

/** A section's items: banners and shortcuts (image, title, link) or courses; add, edit, reorder, remove. */
export function FeedItems({ section, edit, onClose }: { section: Section | null; edit: boolean; onClose: () => void }) {
  const confirm = useDangerConfirm()
  const key = ['storefront', 'items', section?.id]
  const path = `/admin/home/sections/${section?.id}/items`
  const items = useOrderedList<Item>(key, path, `${path}/order`, { enabled: section !== null })
  const links = section?.kind === 'banner' || section?.kind === 'shortcuts'
  const [q, setQ] = useState('')
  const editor = useEditor<Item, Values>('item', (i) =>
    i ? { title: i.title, image_url: i.image_url ?? undefined, link: i.link ?? undefined } : {},
  )
  const adding = editor.dialog.open && editor.editing === null
  const courses = useQuery({
    queryKey: ['storefront', 'course-pick', q],
    queryFn: () => api.get<ListPage<Course>>('/admin/courses', { q, page_size: 20, status: 'published' }),
    enabled: adding && !links,
  })
  const save = useWrite(
    (v: Values) =>
      editor.editing
        ? api.patch<Item>(`/admin/home/items/${editor.editing.id}`, v)
        : api.post<Item>('/admin/home/items', { ...v, section_id: section!.id }),
    '已保存，首页已更新',
    [key],
  )
  const remove = useWrite((i: Item) => api.delete(`/admin/home/items/${i.id}`), '已移除', [key])

  return (
    <Drawer
      open={section !== null}
      onClose={onClose}
      size={720}
      title={section ? `${homeSectionKindNames[section.kind]}：${section.title || '（无标题）'}` : ''}
      extra={edit && <AddButton label={links ? '添加图片' : '添加课程'} onClick={() => editor.open(null)} />}
    >
      <OrderedTable<Item>
        size="small"
        of={items}
        empty="这个栏目还没有内容；没有内容的栏目不在首页显示。"
        columns={[
          ...(links
            ? [
                {
                  title: '图片',
                  dataIndex: 'image_url',
                  width: 100,
                  render: (src: string | null) => (src ? <img src={src} alt="" className="zx-console-cover" /> : '—'),
                },
                { title: '标题', dataIndex: 'title' },
                { title: '链接', dataIndex: 'link', ellipsis: true },
              ]
            : [
                {
                  title: '课程',
                  dataIndex: 'course_title',
                  render: (t: string | null, i: Item) => t ?? `课程 ${i.course_id}`,
                },
              ]),
          ...actionsColumn<Item>(
            (it, n) => (
              <>
                {items.move(n)}
                {links && <a onClick={() => editor.open(it)}>编辑</a>}
                <a
                  className="zx-console-danger"
                  onClick={() =>
                    confirm({
                      title: `从栏目移除「${it.title || it.course_title || it.id}」`,
                      content: '移除后学员首页马上不再显示它（课程本身不受影响）。',
                      okText: '确认移除',
                      run: () => remove.mutateAsync(it),
                    })
                  }
                >
                  移除
                </a>
              </>
            ),
            edit,
            200,
          ),
        ]}
      />
      <FormDialog {...editor.dialog} title={editor.editing ? '编辑' : links ? '添加图片' : '添加课程'} save={save}>
        {links ? (
          <>
            <Form.Item label="标题" name="title" rules={[zodRule(HomeItemCreate.shape.title)]}>
              <Input maxLength={30} />
            </Form.Item>
            <Form.Item label="图片" name="image_url" rules={[{ required: true, message: '请上传图片' }]}>
              <ImageField label="首页图片" />
            </Form.Item>
            <Form.Item
              label="链接"
              name="link"
              rules={[{ required: true, message: '请填写链接' }, zodRule(HomeItemCreate.shape.link)]}
              extra="站内路径如 /course/1001.html、/vip，或 https 网址"
            >
              <Input />
            </Form.Item>
          </>
        ) : (
          <Form.Item label="课程" name="course_id" rules={[{ required: true, message: '请选择课程' }]}>
            <Select
              showSearch
              filterOption={false}
              onSearch={setQ}
              placeholder="输入课程标题搜索（仅已上架）"
              loading={courses.isFetching}
              options={(courses.data?.list ?? []).map((c) => ({ value: c.id, label: `${c.title}（${c.id}）` }))}
            />
          </Form.Item>
        )}
      </FormDialog>
    </Drawer>
  )
}
