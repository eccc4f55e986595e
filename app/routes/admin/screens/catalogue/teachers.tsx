import { Avatar, Form, Input, InputNumber } from 'antd'
import { TeacherCreate } from '#shared/api/catalogue-editing.ts'
import { api } from '../../lib/client.ts'
import { TextField } from '../../lib/fields.tsx'
import { actionsColumn } from '../../lib/columns.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { editTitle, FormDialog } from '../../lib/form-dialog.tsx'
import { ImageField } from '../../lib/image-field.tsx'
import { ListHeader } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { WholeTable } from '../../lib/whole-list.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { useTeachers, type Teacher } from './use-catalogue.ts'

type Values = {
  name: string
  title?: string
  avatar_url?: string | null
  intro?: string
  sort?: number
  member_id?: number | null
}

/** Teachers: name, title, photo (uploaded), introduction; the learners' teacher pages show them. */
export default function Teachers() {
  const edit = useMe().may('catalogue.edit')
  const { data = [], isFetching, error } = useTeachers()
  const editor = useEditor<Teacher, Values>('teacher', (t) =>
    t
      ? { name: t.name, title: t.title, avatar_url: t.avatar_url, intro: t.intro, sort: t.sort, member_id: t.member_id }
      : { title: '', intro: '', sort: 0, avatar_url: null, member_id: null },
  )
  const { editing } = editor

  const save = useWrite(
    (v: Values) =>
      editing ? api.patch<Teacher>(`/admin/teachers/${editing.id}`, v) : api.post<Teacher>('/admin/teachers', v),
    (t) => `已保存讲师「${t.name}」`,
    [['catalogue', 'teachers']],
  )

  return (
    <>
      <ListHeader title="讲师" add={edit && { label: '新建讲师', onClick: () => editor.open(null) }} error={error} />
      <div className="zx-console-table">
        <WholeTable<Teacher>
          rows={data}
          fetching={isFetching}
          pagination={{ pageSize: 20, showTotal: (n) => `共 ${n} 位` }}
          empty="还没有讲师。点「新建讲师」添加。"
          columns={[
            {
              title: '照片',
              dataIndex: 'avatar_url',
              width: 80,
              render: (src: string | null, t) => <Avatar src={src ?? undefined}>{t.name.slice(0, 1)}</Avatar>,
            },
            { title: '姓名', dataIndex: 'name' },
            { title: '头衔', dataIndex: 'title' },
            { title: '简介', dataIndex: 'intro', ellipsis: true },
            { title: '排序', dataIndex: 'sort', width: 80 },
            { title: '关联员工', dataIndex: 'member_id', width: 100, render: (m: number | null) => m ?? '—' },
            ...actionsColumn<Teacher>((t) => <a onClick={() => editor.open(t)}>编辑</a>, edit, 90),
          ]}
        />
      </div>
      <FormDialog {...editor.dialog} title={editTitle('讲师', editing?.name)} save={save} destroyOnHidden width={600}>
        <TextField label="姓名" name="name" schema={TeacherCreate.shape.name} max={30} required="请填写姓名" />
        <TextField label="头衔" name="title" schema={TeacherCreate.shape.title} max={50} placeholder="如：资深剪辑师" />
        <Form.Item label="照片" name="avatar_url">
          <ImageField label="讲师照片" />
        </Form.Item>
        <Form.Item label="简介" name="intro" rules={[zodRule(TeacherCreate.shape.intro)]}>
          <Input.TextArea rows={4} maxLength={5000} showCount />
        </Form.Item>
        <Form.Item
          label="排序"
          name="sort"
          rules={[{ required: true, message: '请填写排序' }, zodRule(TeacherCreate.shape.sort)]}
          extra="数字小的在前"
        >
          <InputNumber precision={0} />
        </Form.Item>
        <Form.Item
          label="关联员工（会员 ID）"
          name="member_id"
          rules={[zodRule(TeacherCreate.shape.member_id, (v) => v ?? null)]}
          extra="填上后，这位员工以讲师角色登录后台时只看到、只能修改这位讲师的课程。"
        >
          <InputNumber precision={0} />
        </Form.Item>
      </FormDialog>
    </>
  )
}
