import { Avatar, Space, Tag, Typography } from 'antd'
import { useNavigate } from 'react-router'
import type { ListedMember } from '#server/modules/admin/admin-members.schema.ts'
import { ConsoleTable, type TableParams } from '../lib/console-table.tsx'
import { when } from '../lib/format.ts'
import { csvExport, pagedLoad } from '../lib/list.ts'
import { memberRoleNames } from './names.ts'

const PATH = '/admin/members'
const load = pagedLoad<ListedMember>(PATH)
const exportCsv = csvExport(PATH)

/** The table's joining-date filter (from / to) as the members API names it (joined_from / joined_to). */
function joined(p: TableParams): TableParams {
  const { from, to, ...rest } = p.filters
  return { ...p, filters: { ...rest, ...(from && { joined_from: from }), ...(to && { joined_to: to }) } }
}

/** Members: search by phone, id or nickname; filter by standing and joining day; open a member's page. */
export default function Members() {
  const navigate = useNavigate()
  return (
    <>
      <Typography.Title level={4}>会员</Typography.Title>
      <ConsoleTable<ListedMember>
        id="members"
        rowKey="id"
        searchPlaceholder="手机号、会员 ID 或昵称"
        filters={[
          {
            name: 'role',
            label: '身份',
            type: 'select',
            options: Object.entries(memberRoleNames).map(([value, label]) => ({ value, label })),
          },
          { name: 'joined', label: '注册日期', type: 'dates' },
        ]}
        load={(p) => load(joined(p))}
        onExport={(p) => exportCsv(joined(p))}
        onRow={(m) => ({ onClick: () => void navigate(`${PATH}/${m.id}`), style: { cursor: 'pointer' } })}
        empty="没有找到会员。手机号请输入完整的 11 位，或换昵称中的几个字试试。"
        columns={[
          { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, width: 90 },
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
                {m.wechat_bound && <Tag color="green">微信</Tag>}
                {m.is_purchaser && <Tag color="gold">已购课</Tag>}
              </Space>
            ),
          },
          { title: '注册时间', dataIndex: 'created_at', key: 'created_at', sorter: true, render: when },
          { title: '最近登录', dataIndex: 'last_login_at', key: 'last_login_at', sorter: true, render: when },
        ]}
      />
    </>
  )
}
