import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Space, Table, Tag, theme, Typography, type TableColumnsType } from 'antd'
import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import type { MemberPage, MemberSession } from '#server/modules/admin/admin-members.schema.ts'
import type { QueuedComment } from '#server/modules/comments/comments.schema.ts'
import type { LedgerEntry } from '#server/modules/points/points.schema.ts'
import type { ListPage } from '#shared/api/admin-list.ts'
import { MemberSessionRevoke } from '#shared/api/admin-members.ts'
import { api } from '../lib/client.ts'
import { timeColumn } from '../lib/columns.tsx'
import { when } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { useReasonDialog } from '../lib/reason-dialog.tsx'
import { commentStatusNames } from './names.ts'
import { ledgerColumns } from './points.tsx'

// The member page's other tabs: points (read-only here; adjustments are the points screen's), sign-in sessions
// (sign out one or all, with a reason), the comments they wrote.

/**
 * One of the member's lists: the console list at `path` filtered to them, newest first, paged here (the page's
 * URL keeps only the open tab).
 */
function MemberList<T extends { id: number }>(props: {
  memberId: number
  path: string
  pageSize: number
  empty: ReactNode
  columns: TableColumnsType<T>
}) {
  const { memberId, path, pageSize } = props
  const [page, setPage] = useState(1)
  const list = useQuery({
    queryKey: ['member-list', path, memberId, page],
    queryFn: () => api.get<ListPage<T>>(path, { member_id: memberId, page, page_size: pageSize, sort: '-id' }),
  })
  return (
    <>
      {list.error && <div className="zx-console-error">加载失败：{list.error.message}</div>}
      <Table<T>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: true }}
        locale={{ emptyText: props.empty }}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showTotal: (n) => `共 ${n} 条`,
        }}
        columns={props.columns}
      />
    </>
  )
}

/** The points balance and ledger (GET /admin/points/ledger?member_id=), newest first, 20 a page. */
export function MemberPoints({ member }: { member: Pick<MemberPage, 'id' | 'points_balance'> }) {
  return (
    <>
      <Space className="zx-console-filters">
        <Typography.Text>
          当前积分 <b>{member.points_balance}</b>
        </Typography.Text>
        <Typography.Text type="secondary">调整积分请到积分管理页面（需“积分调整”权限）。</Typography.Text>
      </Space>
      <MemberList<LedgerEntry>
        memberId={member.id}
        path="/admin/points/ledger"
        pageSize={20}
        empty="没有积分变动"
        columns={[{ title: '流水', dataIndex: 'id', width: 80 }, ...ledgerColumns]}
      />
    </>
  )
}

const platformNames: Record<number, string> = { 1: '电脑', 2: '手机浏览器', 3: '微信' }
const sessionStates: Record<string, { text: string; color?: string }> = {
  active: { text: '在线', color: 'green' },
  expired: { text: '已过期' },
  revoked: { text: '已下线', color: 'red' },
}

/** Sign-in sessions; signing out one or all asks why and names the member. */
export function MemberSessions({ member }: { member: MemberPage }) {
  const { may } = useMe()
  const client = useQueryClient()
  const [ask, dialog] = useReasonDialog()
  const name = `${member.nickname || '未设置昵称'}（ID ${member.id}）`
  const active = member.sessions.filter((s) => s.state === 'active').length
  const signOut = (session?: MemberSession) =>
    ask({
      title: session ? '下线这个会话' : '下线全部会话',
      okText: '确认下线',
      label: '下线原因',
      schema: MemberSessionRevoke.shape.reason,
      content: (
        <p>
          {session
            ? `让 ${name} 在${platformNames[session.platform] ?? '这台设备'}上的登录（${when(session.created_at)} 登录）立即失效。`
            : `让 ${name} 的全部 ${active} 个登录立即失效，每台设备都需要重新登录。`}
        </p>
      ),
      run: async (reason) => {
        await api.post(`/admin/members/${member.id}/sessions/revoke`, { reason, session_id: session?.id })
        await client.invalidateQueries({ queryKey: ['member', member.id] })
      },
    })
  const changes = may('members.entitlements')
  return (
    <>
      <Space className="zx-console-filters">
        {changes && (
          <Button danger disabled={active === 0} onClick={() => signOut()}>
            全部下线
          </Button>
        )}
        <Typography.Text type="secondary">在线 {active} 个</Typography.Text>
      </Space>
      <Table<MemberSession>
        rowKey="id"
        size="middle"
        dataSource={member.sessions}
        pagination={false}
        locale={{ emptyText: '没有登录记录' }}
        columns={[
          { title: '设备', dataIndex: 'platform', render: (p: number) => platformNames[p] ?? p },
          { title: '登录时间', dataIndex: 'created_at', render: when },
          { title: '到期', dataIndex: 'expires_at', render: when },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: string, row) => (
              <Space>
                <Tag color={sessionStates[s]?.color}>{sessionStates[s]?.text ?? s}</Tag>
                {row.revoked_at && <Typography.Text type="secondary">{when(row.revoked_at)}</Typography.Text>}
              </Space>
            ),
          },
          ...(changes
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  render: (_v: unknown, s: MemberSession) =>
                    s.state === 'active' ? (
                      <Button size="small" danger onClick={() => signOut(s)}>
                        下线
                      </Button>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      {dialog}
    </>
  )
}

/** The comments the member wrote, newest first, paged on the server; 评论管理 opens them to moderate. */
export function MemberComments({ memberId }: { memberId: number }) {
  // A router link in the console's link colour (the learner pages' global style makes links inherit theirs).
  const { token } = theme.useToken()
  return (
    <>
      <Space className="zx-console-filters">
        <Link to={`/admin/engagement/comments?member_id=${memberId}`} style={{ color: token.colorLink }}>
          在评论管理中处理这位会员的评论
        </Link>
      </Space>
      <MemberList<QueuedComment>
        memberId={memberId}
        path="/admin/comments"
        pageSize={10}
        empty="这位会员还没有发表评论"
        columns={[
          { title: '内容', dataIndex: 'content', ellipsis: true, width: 420 },
          {
            title: '课程',
            key: 'course',
            render: (_v, c) => `${c.course.title}${c.video ? ` · ${c.video.title}` : ''}`,
          },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: string, c) => (
              <Space size={4}>
                <Tag color={s === 'shown' ? 'green' : undefined}>{commentStatusNames[s] ?? s}</Tag>
                {c.is_private && <Tag>仅自己可见</Tag>}
              </Space>
            ),
          },
          { title: '点赞', dataIndex: 'like_count', align: 'right' },
          timeColumn('时间', 'created_at'),
        ]}
      />
    </>
  )
}
