import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, DatePicker, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { Link } from 'react-router'
import type { MemberEntitlement, MemberPage } from '#server/modules/admin/admin-members.schema.ts'
import { MemberCourseGrant, MemberCourseRevoke } from '#shared/api/admin-members.ts'
import { api } from '../lib/client.ts'
import { useConfirm } from '../lib/confirm.tsx'
import { when } from '../lib/format.ts'
import { AddButton } from '../lib/list-header.tsx'
import { useMe } from '../lib/me.ts'
import { useReasonDialog } from '../lib/reason-dialog.tsx'
import { validFields } from '../lib/valid-fields.ts'
import { WholeTable } from '../lib/whole-list.tsx'
import { zodRule } from '../lib/zod-rule.ts'
import { entitlementSourceNames } from './names.ts'

type Member = Pick<MemberPage, 'id' | 'nickname' | 'phone'>
const who = (m: Member) => `${m.nickname || '未设置昵称'}（ID ${m.id}${m.phone ? `，${m.phone}` : ''}）`

function stateOf(e: MemberEntitlement) {
  if (e.revoked_at) return <Tag>已收回</Tag>
  if (!e.active) return <Tag color="orange">已过期</Tag>
  return <Tag color="green">有效</Tag>
}

/** Why the member holds it: the source, and the order it came with or who granted it and why. */
function Origin({ e }: { e: MemberEntitlement }) {
  const { may } = useMe()
  return (
    <Space orientation="vertical" size={0}>
      <Tag color={e.source === 'admin' ? 'purple' : 'blue'}>{entitlementSourceNames[e.source] ?? e.source}</Tag>
      {e.order_no &&
        (may('orders.read') ? (
          <Link to={`/admin/sales/orders?q=${e.order_no}`}>订单 {e.order_no}</Link>
        ) : (
          <span>订单 {e.order_no}</span>
        ))}
      {e.granted_by && (
        <Typography.Text type="secondary">
          {e.granted_by.nickname || `员工 ${e.granted_by.member_id}`} 授予{e.reason ? `：${e.reason}` : ''}
        </Typography.Text>
      )}
      {!e.order_no && !e.granted_by && e.source !== 'vip' && e.source_ref && (
        <Typography.Text type="secondary">{e.why}</Typography.Text>
      )}
    </Space>
  )
}

/** The member's courses: every entitlement and why it exists; grant a course or revoke one, each with a reason. */
export function MemberCourses({ member }: { member: Member }) {
  const { may } = useMe()
  const client = useQueryClient()
  const [granting, setGranting] = useState(false)
  const [ask, dialog] = useReasonDialog()
  const key = ['member-entitlements', member.id]
  const list = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ list: MemberEntitlement[] }>(`/admin/members/${member.id}/entitlements`),
  })
  const changes = may('members.entitlements')

  const revoke = (e: MemberEntitlement) =>
    ask({
      title: '收回课程',
      okText: '确认收回',
      label: '收回原因',
      schema: MemberCourseRevoke.shape.reason,
      content: (
        <p>
          收回 {who(member)} 的《{e.course_title || `课程 ${e.course_id}`}》（
          {entitlementSourceNames[e.source] ?? e.source}
          ）。收回后立即不能再观看。
        </p>
      ),
      run: async (reason) => {
        await api.post(`/admin/members/${member.id}/entitlements/${e.id}/revoke`, { reason })
        await client.invalidateQueries({ queryKey: key })
      },
    })

  return (
    <>
      <Space className="zx-console-filters">
        {changes && <AddButton label="授予课程" onClick={() => setGranting(true)} />}
        <Typography.Text type="secondary">共 {list.data?.list.length ?? 0} 条（含已收回、已过期）</Typography.Text>
      </Space>
      {list.error && <div className="zx-console-error">加载失败：{list.error.message}</div>}
      <WholeTable<MemberEntitlement>
        size="middle"
        rows={list.data?.list ?? []}
        fetching={list.isFetching}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        empty="这位会员还没有任何课程权限"
        columns={[
          {
            title: '课程',
            dataIndex: 'course_title',
            render: (t: string, e) => (
              <Space orientation="vertical" size={0}>
                <span>{t || '（已删除的课程）'}</span>
                <Typography.Text type="secondary">ID {e.course_id}</Typography.Text>
              </Space>
            ),
          },
          { title: '来源', key: 'origin', render: (_v, e) => <Origin e={e} /> },
          { title: '授予时间', dataIndex: 'granted_at', width: 150, render: when },
          {
            title: '到期',
            dataIndex: 'expires_at',
            width: 140,
            render: (v: string | null) => (v ? when(v) : '永久'),
          },
          { title: '状态', key: 'state', width: 80, render: (_v, e) => stateOf(e) },
          ...(changes
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  width: 80,
                  render: (_v: unknown, e: MemberEntitlement) =>
                    e.active && e.source !== 'vip' ? (
                      <Button size="small" danger onClick={() => revoke(e)}>
                        收回
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      {dialog}
      {granting && (
        <GrantDialog
          member={member}
          onClose={() => setGranting(false)}
          onDone={() => client.invalidateQueries({ queryKey: key })}
        />
      )}
    </>
  )
}

interface GrantForm {
  course_id: number
  reason: string
  expires_at?: { toDate: () => Date } | null
}

/** Grant a whole course: pick it by title, say why, optionally until when; a confirmation names course and member. */
function GrantDialog(props: { member: Member; onClose: () => void; onDone: () => Promise<void> }) {
  const { message } = App.useApp()
  const confirm = useConfirm()
  const [form] = Form.useForm<GrantForm>()
  const [text, setText] = useState('')
  const courses = useQuery({
    queryKey: ['course-options', text],
    queryFn: () => api.get<{ list: { id: number; title: string; status?: string }[] }>('/admin/courses', { q: text }),
  })
  const options = (courses.data?.list ?? []).map((c) => ({
    value: c.id,
    label: `${c.title}（ID ${c.id}${c.status && c.status !== 'published' ? '，未上架' : ''}）`,
    title: c.title,
  }))
  const grant = useMutation({
    mutationFn: (body: { course_id: number; reason: string; expires_at: string | null }) =>
      api.post(`/admin/members/${props.member.id}/courses`, body),
  })

  const submit = async () => {
    // An invalid form shows its messages under the fields; nothing else to do.
    const v = await validFields(form)
    if (!v) return
    const title = options.find((o) => o.value === v.course_id)?.title ?? `课程 ${v.course_id}`
    const until = v.expires_at ? v.expires_at.toDate() : null
    // A refusal (到期时间必须晚于现在) keeps the confirmation open with the reason, and puts it under its field here.
    confirm({
      title: '确认授予课程',
      content: `将《${title}》授予 ${who(props.member)}，${until ? `有效至 ${when(until.toISOString())}` : '永久有效'}。原因：${v.reason.trim()}`,
      okText: '确认授予',
      cancelText: '再想想',
      form,
      run: async () => {
        await grant.mutateAsync({
          course_id: v.course_id,
          reason: v.reason.trim(),
          expires_at: until?.toISOString() ?? null,
        })
        message.success(`已将《${title}》授予 ${props.member.nickname || props.member.id}`)
        await props.onDone()
        props.onClose()
      },
    })
  }

  return (
    <Modal
      open
      title={`授予课程给 ${who(props.member)}`}
      okText="下一步"
      cancelText="取消"
      onOk={submit}
      onCancel={props.onClose}
      confirmLoading={grant.isPending}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          label="课程"
          name="course_id"
          rules={[{ required: true, message: '请选择课程' }, zodRule(MemberCourseGrant.shape.course_id)]}
        >
          <Select
            showSearch={{ filterOption: false, onSearch: setText }}
            placeholder="输入课程名称搜索"
            aria-label="课程"
            options={options}
            loading={courses.isFetching}
            notFoundContent={courses.isFetching ? '搜索中…' : '没有这个名称的课程'}
          />
        </Form.Item>
        <Form.Item
          label="授予原因"
          name="reason"
          rules={[{ required: true, message: '请填写授予原因' }, zodRule(MemberCourseGrant.shape.reason)]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：客服补偿、线下报名" />
        </Form.Item>
        <Form.Item label="有效期至（不填为永久）" name="expires_at">
          <DatePicker showTime style={{ width: '100%' }} aria-label="有效期至" />
        </Form.Item>
      </Form>
    </Modal>
  )
}
