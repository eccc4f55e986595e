import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Checkbox, Form, Input, Modal, Tag, Typography } from 'antd'
import { useState } from 'react'
import { GrantByPhoneBody, type StaffChange, type StaffMember } from '#shared/api/staff.ts'
import { roleAbilities, staffChangeText, StaffRoleNames, StaffRoles, type StaffRole } from '#shared/staff/roles.ts'
import { api } from '../lib/client.ts'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { actionsColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { AddButton } from '../lib/list-header.tsx'
import { useStepUp } from '../lib/step-up.tsx'
import { showUnderField, validFields } from '../lib/valid-fields.ts'
import { zodRule } from '../lib/zod-rule.ts'

const roleOptions = StaffRoles.map((r) => ({ value: r, label: StaffRoleNames[r] }))

/** The role picker: each role with what it may do, in the role table's own words (roleAbilities). */
function RolePicker(props: { value?: StaffRole[]; onChange?: (roles: StaffRole[]) => void }) {
  return (
    <Checkbox.Group value={props.value} onChange={props.onChange} className="zx-console-role-picker">
      {StaffRoles.map((r) => (
        <Checkbox key={r} value={r}>
          <b>{StaffRoleNames[r]}</b>
          <Typography.Text type="secondary" className="zx-console-role-abilities">
            {roleAbilities(r).join('、')}
          </Typography.Text>
        </Checkbox>
      ))}
    </Checkbox.Group>
  )
}

/** Staff accounts and roles: admins grant and revoke (after a fresh SMS code); the list exports as CSV. */
export default function Staff() {
  const { message } = App.useApp()
  const confirm = useDangerConfirm()
  const stepUp = useStepUp()
  const client = useQueryClient()
  const [editing, setEditing] = useState<StaffMember | null>(null)
  const [granting, setGranting] = useState(false)
  const [form] = Form.useForm<{ phone: string; name?: string; roles: StaffRole[] }>()

  const save = useMutation({
    mutationFn: async (v: {
      memberId?: number
      nickname?: string
      phone?: string
      name?: string
      roles: StaffRole[]
    }) => {
      if (!(await stepUp())) throw new Error('未完成短信验证，操作没有执行')
      return v.memberId
        ? api.put<StaffChange>(`/admin/staff/${v.memberId}/roles`, {
            roles: v.roles,
            name: v.name === v.nickname ? undefined : v.name?.trim() || undefined,
          })
        : api.post<StaffChange>('/admin/staff', { phone: v.phone, roles: v.roles, name: v.name?.trim() || undefined })
    },
    onSuccess: (m) => {
      message.success(staffChangeText(m))
      setEditing(null)
      setGranting(false)
      void client.invalidateQueries({ queryKey: tableKey('/admin/staff') })
    },
    onError: (e) => message.error(e.message),
  })

  const submit = async () => {
    const v = await validFields(form)
    if (!v) return
    const removed = editing ? editing.roles.filter((r) => !v.roles.includes(r)) : []
    const go = () =>
      save.mutateAsync({
        memberId: editing?.member_id,
        nickname: editing?.nickname,
        phone: v.phone,
        name: v.name,
        roles: v.roles,
      })
    // A refusal is shown (onError), under the phone when it is about it; the dialog stays open.
    if (!editing || removed.length === 0) return void go().catch((e: unknown) => showUnderField(form, e))
    confirm({
      title: v.roles.length ? '撤销角色' : '撤销全部角色',
      content: `将撤销 ${editing.nickname} 的「${removed.map((r) => StaffRoleNames[r]).join('、')}」角色${v.roles.length ? '' : '，此后他不能再登录后台'}。`,
      okText: '确认撤销',
      form,
      run: go,
    })
  }

  const open = (m: StaffMember | null) => {
    form.setFieldsValue({ phone: m?.phone ?? '', name: m?.nickname ?? '', roles: m?.roles ?? [] })
    setEditing(m)
    setGranting(m === null)
  }

  return (
    <>
      <ConsoleTable<StaffMember>
        title="员工与角色"
        rowKey="member_id"
        path="/admin/staff"
        csv="staff.manage"
        search="姓名、手机号或成员ID"
        filters={[selectFilter('role', '角色', roleOptions)]}
        toolbar={<AddButton label="授权新员工" onClick={() => open(null)} />}
        empty="还没有员工。点「授权新员工」，用手机号授权。"
        columns={[
          { title: 'ID', dataIndex: 'member_id', key: 'id', sorter: true, width: 90 },
          { title: '姓名 / 昵称', dataIndex: 'nickname' },
          { title: '手机号', dataIndex: 'phone' },
          {
            title: '角色',
            dataIndex: 'roles',
            render: (roles: StaffRole[]) => roles.map((r) => <Tag key={r}>{StaffRoleNames[r]}</Tag>),
          },
          timeColumn('授权时间', 'granted_at', true),
          timeColumn('最近登录', 'last_login_at', true),
          ...actionsColumn<StaffMember>((m) => <a onClick={() => open(m)}>编辑</a>),
        ]}
      />
      <Modal
        title={editing ? `编辑员工：${editing.nickname}` : '授权新员工'}
        open={granting || editing !== null}
        okText="保存"
        cancelText="取消"
        confirmLoading={save.isPending}
        onOk={submit}
        onCancel={() => {
          setEditing(null)
          setGranting(false)
        }}
        destroyOnHidden
        width={640}
      >
        <Form form={form} layout="vertical">
          {!editing && (
            <Form.Item label="手机号" name="phone" rules={[zodRule(GrantByPhoneBody.shape.phone)]}>
              <Input maxLength={11} placeholder="员工用这个手机号登录后台" />
            </Form.Item>
          )}
          <Form.Item
            label={editing ? '姓名' : '姓名（选填）'}
            name="name"
            // A nickname kept as it is is not checked again (a learner's may be longer than a name may be).
            rules={[
              (f) =>
                editing && f.getFieldValue('name') === editing.nickname ? {} : zodRule(GrantByPhoneBody.shape.name),
            ]}
            extra={
              editing
                ? '后台和操作记录里显示的名字，也是他在学员端的昵称；清空则不改。'
                : '后台和操作记录里显示的名字；不填则保留原昵称（新成员为“学员”加手机尾号）。'
            }
          >
            <Input maxLength={20} placeholder="例如 张三" />
          </Form.Item>
          <Form.Item label="角色" name="roles" rules={editing ? [] : [zodRule(GrantByPhoneBody.shape.roles)]}>
            <RolePicker />
          </Form.Item>
        </Form>
      </Modal>
    </>
  )
}
