import { Avatar, Space, Tag } from 'antd'
import { useNavigate } from 'react-router'
import type { ListedMember } from '#server/modules/admin/admin-members.schema.ts'
import { idColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, type TableParams } from '../lib/console-table.tsx'
import { memberRoleNames } from './names.ts'

const PATH = '/admin/members'

/** The table's joining-date filter (from / to) as the members API names it (joined_from / joined_to). */
function joined(p: TableParams): TableParams {
  const { from, to, ...rest } = p.filters
  return { ...p, filters: { ...rest, ...(from && { joined_from: from }), ...(to && { joined_to: to }) } }
}

/** Members: search by phone, id or nickname; filter by standing and joining day; open a member's page. */
export default function Members() {
  const navigate = useNavigate()
  return (
    <ConsoleTable<ListedMember>
      title="会员"
      path={PATH}
      params={joined}
      csv="members.read"
      search="手机号、会员 ID 或昵称"
      filters={[selectFilter('role', '身份', memberRoleNames), { name: 'joined', label: '注册日期', type: 'dates' }]}
      onRow={(m) => ({ onClick: () => void navigate(`${PATH}/${m.id}`), style: { cursor: 'pointer' } })}
      empty="没有找到会员。手机号请输入完整的 11 位，或换昵称中的几个字试试。"
      columns={[
        idColumn('ID', 90),
        {
          title: '会员',
          dataIndex: 'nickname',
          render: (_v: string, m) => (
            <Space>
              <Avatar size="small" src={m.avatar ?? undefined}>
                {m.nickname.slice(0, 1)}
              </Avatar>
              <a>{m.nickname || '（未设置昵称）'}</a>
            </Space>
          ),
        },
        { title: '手机号', dataIndex: 'phone', render: (v: string | null) => v ?? '未绑定' },
        {
          title: '身份',
          dataIndex: 'role',
          render: (r: string, m) => (
            <Space size={4}>
              <Tag color={r === 'member' ? undefined : 'blue'}>{memberRoleNames[r] ?? r}</Tag>
              {m.vip_active && <Tag color="orange">VIP</Tag>}
              {m.wechat_bound && <Tag color="green">微信</Tag>}
              {m.is_purchaser && <Tag color="gold">已购课</Tag>}
            </Space>
          ),
        },
        timeColumn('注册时间', 'created_at', true),
        timeColumn('最近登录', 'last_login_at', true),
      ]}
    />
  )
}
