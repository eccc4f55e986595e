import { useQueries, useQuery } from '@tanstack/react-query'
import { Form, Input, InputNumber, Select } from 'antd'
import { useState } from 'react'
import { StaffBundleInput } from '#shared/api/admin-bundles.ts'
import type { ListPage } from '#shared/api/admin-list.ts'
import { api } from '../../lib/client.ts'
import { SwitchField, TextField } from '../../lib/fields.tsx'
import { actionsColumn, moneyColumn, onOffColumn } from '../../lib/columns.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { editTitle, FormDialog } from '../../lib/form-dialog.tsx'
import { fenOf } from '../../lib/format.ts'
import { ImageField } from '../../lib/image-field.tsx'
import { ListHeader } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { WholeTable } from '../../lib/whole-list.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import type { Course } from './use-catalogue.ts'

type Bundle = {
  id: number
  title: string
  subtitle: string
  cover_url: string | null
  intro: string
  price_fen: number
  list_price_fen: number
  course_count: number
  course_ids: number[]
  active: boolean
  sort: number
}
type Values = Omit<Bundle, 'id' | 'price_fen' | 'list_price_fen' | 'course_count'> & { price_yuan: number }
const key = ['catalogue', 'bundles']

/** Course bundles: their courses in order, the bundle price (in yuan here, fen in the API), on sale or not. */
export default function Bundles() {
  const edit = useMe().may('marketing.edit')
  const bundles = useQuery({ queryKey: key, queryFn: () => api.get<{ list: Bundle[] }>('/admin/bundles') })
  const editor = useEditor<Bundle, Values>('bundle', (b) =>
    b
      ? { ...b, price_yuan: b.price_fen / 100 }
      : { title: '', subtitle: '', intro: '', cover_url: null, course_ids: [], active: true, sort: 0 },
  )
  const { editing } = editor
  const [q, setQ] = useState('')
  const chosen: number[] = Form.useWatch('course_ids', editor.form) ?? []
  const found = useQuery({
    queryKey: ['catalogue', 'bundle-courses', q],
    queryFn: () => api.get<ListPage<Course>>('/admin/courses', { q, page_size: 20 }),
    enabled: editor.dialog.open,
  })
  // The titles of the courses already in the bundle (the search shows only matches).
  const known = useQueries({
    queries: chosen.map((id) => ({
      queryKey: ['catalogue', 'course', id],
      queryFn: () => api.get<Course>(`/admin/courses/${id}`),
    })),
  })
  const titles = new Map<number, string>()
  for (const c of [...(found.data?.list ?? []), ...known.flatMap((k) => (k.data ? [k.data] : []))])
    titles.set(c.id, c.title)

  const save = useWrite(
    ({ price_yuan, ...v }: Values) => {
      const body = { ...v, price_fen: fenOf(price_yuan) }
      return editing
        ? api.patch<Bundle>(`/admin/bundles/${editing.id}`, body)
        : api.post<Bundle>('/admin/bundles', body)
    },
    (b) => `已保存套餐「${b.title}」`,
    [key],
  )

  return (
    <>
      <ListHeader
        title="套餐"
        add={edit && { label: '新建套餐', onClick: () => editor.open(null) }}
        error={bundles.error}
      />
      <div className="zx-console-table">
        <WholeTable<Bundle>
          rows={bundles.data?.list ?? []}
          fetching={bundles.isFetching}
          empty="还没有套餐。点「新建套餐」，选 2 门以上课程组合出售。"
          columns={[
            { title: 'ID', dataIndex: 'id', width: 70 },
            { title: '标题', dataIndex: 'title' },
            { title: '课程数', dataIndex: 'course_count', width: 80 },
            moneyColumn('套餐价', 'price_fen'),
            moneyColumn('单买合计', 'list_price_fen'),
            onOffColumn('状态', 'active', '在售', '已停售'),
            { title: '排序', dataIndex: 'sort', width: 70 },
            ...actionsColumn<Bundle>((b) => <a onClick={() => editor.open(b)}>编辑</a>, edit, 80),
          ]}
        />
      </div>
      <FormDialog {...editor.dialog} title={editTitle('套餐', editing?.title)} save={save} width={640}>
        <TextField label="标题" name="title" schema={StaffBundleInput.shape.title} max={40} required="请填写标题" />
        <TextField label="副标题" name="subtitle" schema={StaffBundleInput.shape.subtitle} max={80} />
        <Form.Item label="封面" name="cover_url" extra="不上传则显示前三门课的封面">
          <ImageField label="套餐封面" />
        </Form.Item>
        <Form.Item
          label="课程（按显示顺序）"
          name="course_ids"
          rules={[
            { required: true, message: '请选择课程' },
            { type: 'array', min: 2, message: '套餐至少包含 2 门课程' },
            zodRule(StaffBundleInput.shape.course_ids),
          ]}
        >
          <Select
            mode="multiple"
            showSearch
            filterOption={false}
            onSearch={setQ}
            placeholder="输入课程标题搜索"
            options={[...titles].map(([value, label]) => ({ value, label: `${label}（${value}）` }))}
          />
        </Form.Item>
        <Form.Item
          label="套餐价（元）"
          name="price_yuan"
          rules={[
            { required: true, message: '请填写套餐价' },
            zodRule(StaffBundleInput.shape.price_fen, (v) => fenOf(v as number)),
          ]}
        >
          <InputNumber precision={2} prefix="¥" />
        </Form.Item>
        <Form.Item label="介绍" name="intro" rules={[zodRule(StaffBundleInput.shape.intro)]}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <SwitchField label="在售" name="active" />
        <Form.Item
          label="排序"
          name="sort"
          rules={[{ required: true, message: '请填写排序' }, zodRule(StaffBundleInput.shape.sort)]}
        >
          <InputNumber precision={0} />
        </Form.Item>
      </FormDialog>
    </>
  )
}
