import { Tag } from 'antd'
import type { StaffAction as Action } from '#server/modules/audit/audit.schema.ts'
import { timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter } from '../lib/console-table.tsx'

/** The areas of the log, by route prefix. */
const areas = {
  '/api/admin/refunds': '退款',
  '/api/admin/orders': '订单',
  '/api/admin/staff': '员工与角色',
  '/api/admin/courses': '课程',
  '/api/admin/entitlements': '权益',
  '/api/admin/points': '积分',
  '/api/admin/step-up': '短信验证',
  '/api/comment': '评论管理',
}

/** The staff action log: every change made through the staff API, by operator and area, newest first. */
export default function AuditLog() {
  return (
    <ConsoleTable<Action>
      title="操作日志"
      path="/admin/staff-actions"
      csv="audit.read"
      search="操作人成员ID或手机号"
      filters={[selectFilter('route', '操作范围', areas)]}
      empty="没有符合条件的操作记录。"
      columns={[
        { ...timeColumn<Action>('时间', 'created_at', true), width: 150 },
        { title: '操作人', dataIndex: 'nickname', render: (n: string, a) => `${n}（${a.member_id}）` },
        { title: '动作', dataIndex: 'method', render: (m: string) => <Tag>{m}</Tag> },
        { title: '接口', dataIndex: 'url', ellipsis: true },
        {
          title: '结果',
          dataIndex: 'code',
          render: (c: number | null, a) => (
            <Tag color={c === 200 ? 'green' : 'red'}>{c === 200 ? '成功' : `失败 ${c ?? a.status}`}</Tag>
          ),
        },
        {
          title: '内容',
          dataIndex: 'body',
          ellipsis: true,
          render: (b: unknown) => (b ? JSON.stringify(b) : '—'),
        },
      ]}
    />
  )
}
