import { ArrowLeftOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Avatar, Button, Card, Descriptions, Space, Tabs, Tag, Typography } from 'antd'
import { Link, useParams, useSearchParams } from 'react-router'
import type { MemberPage } from '#server/modules/admin/admin-members.schema.ts'
import { api } from '../lib/client.ts'
import { when } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { MemberComments, MemberPoints, MemberSessions } from './member-activity.tsx'
import { MemberCourses } from './member-courses.tsx'
import { memberRoleNames } from './names.ts'

/**
 * A member's page: who they are, VIP and points; tabs for their courses (and why each), points ledger, sign-in
 * sessions and comments; their orders on the orders screen filtered by their id. The open tab is in the URL.
 */
export default function Member() {
  const id = Number(useParams().id)
  const { may } = useMe()
  const [search, setSearch] = useSearchParams()
  const q = useQuery({
    queryKey: ['member', id],
    queryFn: () => api.get<MemberPage>(`/admin/members/${id}`),
    enabled: Number.isInteger(id) && id > 0,
  })
  const back = (
    <Link to="/admin/members">
      <Button type="link" icon={<ArrowLeftOutlined />} style={{ paddingLeft: 0 }}>
        会员列表
      </Button>
    </Link>
  )
  if (q.error || !(id > 0))
    return (
      <>
        {back}
        <div className="zx-console-error">{q.error?.message ?? '会员 ID 不正确'}。请回到会员列表重新搜索。</div>
      </>
    )
  const m = q.data
  if (!m)
    return (
      <>
        {back}
        <Card loading />
      </>
    )

  const tabs = [
    { key: 'courses', label: '课程权限', children: <MemberCourses member={m} /> },
    { key: 'points', label: `积分（${m.points_balance}）`, children: <MemberPoints member={m} /> },
    {
      key: 'sessions',
      label: `登录会话（${m.sessions.filter((s) => s.state === 'active').length}）`,
      children: <MemberSessions member={m} />,
    },
    ...(may('comments.moderate')
      ? [{ key: 'comments', label: '评论', children: <MemberComments memberId={m.id} /> }]
      : []),
  ]
  const tab = tabs.some((t) => t.key === search.get('tab')) ? search.get('tab')! : 'courses'

  return (
    <>
      {back}
      <Card className="zx-member-card">
        <div className="zx-member-head">
          <Space size={16} align="start">
            <Avatar size={56} src={m.avatar ?? undefined}>
              {m.nickname.slice(0, 1)}
            </Avatar>
            <div>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {m.nickname || '（未设置昵称）'}
              </Typography.Title>
              <Space size={4} wrap style={{ marginTop: 4 }}>
                <Tag>ID {m.id}</Tag>
                <Tag color={m.role === 'member' ? undefined : 'blue'}>{memberRoleNames[m.role] ?? m.role}</Tag>
                {m.wechat_bound && <Tag color="green">已绑定微信</Tag>}
                {m.vip_active && <Tag color="gold">VIP</Tag>}
              </Space>
            </div>
          </Space>
          {may('orders.read') && (
            <Link to={`/admin/sales/orders?q=${m.id}`}>
              <Button>查看订单</Button>
            </Link>
          )}
        </div>
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }} style={{ marginTop: 16 }}>
          <Descriptions.Item label="手机号">{m.phone ?? '未绑定'}</Descriptions.Item>
          <Descriptions.Item label="注册时间">{when(m.created_at)}</Descriptions.Item>
          <Descriptions.Item label="最近登录">{when(m.last_login_at)}</Descriptions.Item>
          <Descriptions.Item label="VIP">
            {m.vip_expires_at
              ? `${m.vip_active ? '有效至' : '已于'} ${when(m.vip_expires_at)}${m.vip_active ? '' : ' 过期'}`
              : '未开通'}
          </Descriptions.Item>
          <Descriptions.Item label="积分">{m.points_balance}</Descriptions.Item>
          <Descriptions.Item label="购课">{m.is_purchaser ? '买过课程' : '未购课'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card className="zx-member-card">
        <Tabs
          activeKey={tab}
          onChange={(key) => {
            const next = new URLSearchParams(search)
            next.set('tab', key)
            setSearch(next, { replace: true })
          }}
          items={tabs}
        />
      </Card>
    </>
  )
}
