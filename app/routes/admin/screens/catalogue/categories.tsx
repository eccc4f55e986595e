import { Form, Input, InputNumber, Select } from 'antd'
import { CategoryCreate, type CategoryPatch } from '#shared/api/catalogue-editing.ts'
import { api } from '../../lib/client.ts'
import { SwitchField } from '../../lib/fields.tsx'
import { actionsColumn, onOffColumn } from '../../lib/columns.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { editTitle, FormDialog } from '../../lib/form-dialog.tsx'
import { ImageField } from '../../lib/image-field.tsx'
import { ListHeader } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { WholeTable } from '../../lib/whole-list.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { useCategories, type Category } from './use-catalogue.ts'

type Values = { name: string; parent_id?: number | null; icon?: string | null; sort?: number; visible?: boolean }
type Row = Category & { children?: Row[] }

/** Categories in two levels: areas and their sub-categories; hidden ones stay off the learners' category page. */
export default function Categories() {
  const edit = useMe().may('catalogue.edit')
  const { data = [], isFetching, error } = useCategories()
  const editor = useEditor<Category, Values>('category', (c) =>
    c
      ? { name: c.name, parent_id: c.parent_id, icon: c.icon, sort: c.sort, visible: c.visible }
      : { parent_id: null, visible: true, sort: 0, icon: null },
  )
  const { editing, form } = editor

  const areas = data.filter((c) => c.parent_id === null)
  const tree: Row[] = areas.map((a) => {
    const children = data.filter((c) => c.parent_id === a.id)
    return children.length ? { ...a, children } : a
  })
  const save = useWrite(
    (v: Values) =>
      editing
        ? api.patch<Category>(`/admin/categories/${editing.id}`, v satisfies CategoryPatch)
        : api.post<Category>('/admin/categories', v),
    (c) => `已保存分类「${c.name}」`,
    [['catalogue', 'categories']],
  )
  const hasChildren = editing !== null && data.some((c) => c.parent_id === editing.id)

  return (
    <>
      <ListHeader title="分类" add={edit && { label: '新建分类', onClick: () => editor.open(null) }} error={error} />
      <div className="zx-console-table">
        <WholeTable<Row>
          // Remounted when the categories arrive, so every area opens with its sub-categories shown.
          key={data.length}
          rows={tree}
          fetching={isFetching}
          expandable={{ defaultExpandAllRows: true }}
          empty="还没有分类。点「新建分类」先建一个一级分类。"
          columns={[
            { title: '名称', dataIndex: 'name' },
            { title: 'ID', dataIndex: 'id', width: 90 },
            {
              title: '图标',
              dataIndex: 'icon',
              width: 90,
              render: (icon: string | null) => (icon ? <img src={icon} alt="" height={28} /> : '—'),
            },
            { title: '排序', dataIndex: 'sort', width: 90 },
            { ...onOffColumn<Row>('状态', 'visible', '显示', '隐藏'), width: 100 },
            ...actionsColumn<Row>(
              (c) => (
                <>
                  <a onClick={() => editor.open(c)}>编辑</a>
                  {c.parent_id === null && <a onClick={() => editor.open(null, { parent_id: c.id })}>添加子分类</a>}
                </>
              ),
              edit,
              200,
            ),
          ]}
        />
      </div>
      <FormDialog {...editor.dialog} title={editTitle('分类', editing?.name)} save={save} destroyOnHidden>
        <Form.Item
          label="名称"
          name="name"
          rules={[{ required: true, message: '请填写名称' }, zodRule(CategoryCreate.shape.name)]}
        >
          <Input maxLength={20} showCount />
        </Form.Item>
        <Form.Item label="上级分类" name="parent_id" extra="不选即为一级分类；分类最多两级。">
          <Select
            allowClear
            disabled={hasChildren}
            placeholder="一级分类"
            options={areas.filter((a) => a.id !== editing?.id).map((a) => ({ value: a.id, label: a.name }))}
            onClear={() => form.setFieldValue('parent_id', null)}
          />
        </Form.Item>
        <Form.Item label="图标" name="icon">
          <ImageField label="分类图标" />
        </Form.Item>
        <Form.Item
          label="排序"
          name="sort"
          rules={[{ required: true, message: '请填写排序' }, zodRule(CategoryCreate.shape.sort)]}
          extra="数字小的在前"
        >
          <InputNumber precision={0} />
        </Form.Item>
        <SwitchField label="在分类页显示" name="visible" />
      </FormDialog>
    </>
  )
}
