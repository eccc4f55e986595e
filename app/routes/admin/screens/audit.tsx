import { Tag, Typography } from 'antd'
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
  '/api/admin/members': '会员',
  '/api/admin/points': '积分',
  '/api/admin/step-up': '短信验证',
  '/api/comment': '评论管理',
}

/**
 * The staff action log: every change made through the staff API, by operator and area, newest first. Each row
 * reads as what happened (the server names the action and picks out what it was about); the request itself is in
 * the row's tooltip and the CSV.
 */
export default function AuditLog() {
  return (
    <ConsoleTable<Action>
      title="操作日志"
      path="/admin/staff-actions"
      csv="audit.read"
      fit
      search="操作人成员ID或手机号"
      filters={[selectFilter('route', '操作范围', areas)]}
      empty="没有符合条件的操作记录。"
      none="还没有操作记录。员工在后台的每次改动都会记在这里。"
      columns={[
        { ...timeColumn<Action>('时间', 'created_at', true), width: 150 },
        {
          title: '操作人',
          dataIndex: 'nickname',
          width: 160,
          render: (n: string, a) => (
            <>
              <div>{n}</div>
              <Typography.Text type="secondary">ID {a.member_id}</Typography.Text>
            </>
          ),
        },
        {
          title: '操作',
          dataIndex: 'action',
          width: 140,
          render: (name: string, a) => <span title={`${a.method} ${a.url}`}>{name}</span>,
        },
        {
          title: '内容',
          dataIndex: 'details',
          render: (d: string) => d || '—',
        },
        {
          title: '结果',
          dataIndex: 'result',
          width: 150,
          render: (r: string, a) => (
            <Tag color={a.code === 200 ? 'green' : 'red'} style={{ whiteSpace: 'normal' }}>
              {r}
            </Tag>
          ),
        },
      ]}
    />
  )
}
