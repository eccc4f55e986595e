import { useQueries, useQuery } from '@tanstack/react-query'
import { Form, Input, InputNumber, Select, Switch, Table, Tag } from 'antd'
import { useState } from 'react'
import { StaffBundleInput } from '#shared/api/admin-bundles.ts'
import type { ListPage } from '#shared/api/admin-list.ts'
import { api } from '../../lib/client.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { fenOf, yuan } from '../../lib/format.ts'
import { ImageField } from '../../lib/image-field.tsx'
import { ListHeader } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { zodRule } from '../../lib/zod-rule.ts'
import { useWrite, type Course } from './use-catalogue.ts'

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
  const [open, setOpen] = useState<Bundle | 'new' | null>(null)
  const [q, setQ] = useState('')
  const [form] = Form.useForm<Values>()
  const chosen: number[] = Form.useWatch('course_ids', form) ?? []
  const found = useQuery({
    queryKey: ['catalogue', 'bundle-courses', q],
    queryFn: () => api.get<ListPage<Course>>('/admin/courses', { q, page_size: 20 }),
    enabled: open !== null,
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
      return open === 'new' || open === null
        ? api.post<Bundle>('/admin/bundles', body)
        : api.patch<Bundle>(`/admin/bundles/${open.id}`, body)
    },
    (b) => `已保存套餐「${b.title}」`,
    [key],
  )
  const show = (b: Bundle | 'new') => {
    form.resetFields()
    form.setFieldsValue(
      b === 'new'
        ? { title: '', subtitle: '', intro: '', cover_url: null, course_ids: [], active: true, sort: 0 }
        : { ...b, price_yuan: b.price_fen / 100 },
    )
    setOpen(b)
  }

  return (
    <>
      <ListHeader title="套餐" add={edit && { label: '新建套餐', onClick: () => show('new') }} error={bundles.error} />
      <div className="zx-console-table">
        <Table<Bundle>
          rowKey="id"
          dataSource={bundles.data?.list ?? []}
          loading={bundles.isFetching}
          pagination={false}
          locale={{ emptyText: '还没有套餐。点「新建套餐」，选 2 门以上课程组合出售。' }}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 70 },
            { title: '标题', dataIndex: 'title' },
            { title: '课程数', dataIndex: 'course_count', width: 80 },
            { title: '套餐价', dataIndex: 'price_fen', align: 'right', render: yuan },
            { title: '单买合计', dataIndex: 'list_price_fen', align: 'right', render: yuan },
            {
              title: '状态',
              dataIndex: 'active',
              render: (a: boolean) => (a ? <Tag color="green">在售</Tag> : <Tag>已停售</Tag>),
            },
            { title: '排序', dataIndex: 'sort', width: 70 },
            ...(edit
              ? [
                  {
                    title: '操作',
                    key: 'a',
                    width: 80,
                    render: (_: unknown, b: Bundle) => <a onClick={() => show(b)}>编辑</a>,
                  },
                ]
              : []),
          ]}
        />
      </div>
      <FormDialog
        title={open !== null && open !== 'new' ? `编辑套餐：${open.title}` : '新建套餐'}
        open={open !== null}
        form={form}
        name="bundle"
        saving={save.isPending}
        onSave={save.mutateAsync}
        onClose={() => setOpen(null)}
        width={640}
      >
        <Form.Item label="标题" name="title" rules={[zodRule(StaffBundleInput.shape.title)]}>
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item label="副标题" name="subtitle" rules={[zodRule(StaffBundleInput.shape.subtitle)]}>
          <Input maxLength={80} />
        </Form.Item>
        <Form.Item label="封面" name="cover_url" extra="不上传则显示前三门课的封面">
          <ImageField label="套餐封面" />
        </Form.Item>
        <Form.Item
          label="课程（按显示顺序）"
          name="course_ids"
          rules={[
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
          <InputNumber min={0} precision={2} prefix="¥" />
        </Form.Item>
        <Form.Item label="介绍" name="intro" rules={[zodRule(StaffBundleInput.shape.intro)]}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <Form.Item label="在售" name="active" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label="排序" name="sort" rules={[zodRule(StaffBundleInput.shape.sort)]}>
          <InputNumber precision={0} min={0} />
        </Form.Item>
      </FormDialog>
    </>
  )
}
