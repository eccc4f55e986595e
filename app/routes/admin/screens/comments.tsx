import { useQueryClient } from '@tanstack/react-query'
import { Space, Tag, theme, Typography } from 'antd'
import { useCallback, useEffect } from 'react'
import { Link, useSearchParams } from 'react-router'
import type { QueuedComment } from '#server/modules/comments/comments.schema.ts'
import { CommentModeration } from '#shared/api/admin-comments.ts'
import { IdQuery } from '#shared/api/params.ts'
import { api } from '../lib/client.ts'
import { actionsColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { CourseFilter } from '../lib/course-filter.tsx'
import { when } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { useReasonDialog } from '../lib/reason-dialog.tsx'
import { commentStatusNames, commentTypeNames } from './names.ts'

const PATH = '/admin/comments'

type Action = CommentModeration['action']

const statusColors: Record<string, string | undefined> = { shown: 'green', hidden: 'orange', deleted: 'red' }
const typeColors: Record<string, string | undefined> = { pinned: 'blue', featured: 'gold' }

/** Each action: its link, its dialog (title, what it does), whether it takes something away (a red OK). */
const actions: Record<Action, { link: string; title: string; what: string; danger?: false }> = {
  hide: { link: '隐藏', title: '隐藏评论', what: '隐藏后其他学员看不到它，作者自己仍能看到。可随时恢复显示。' },
  show: {
    link: '恢复显示',
    title: '恢复显示评论',
    what: '恢复后学员又能在评论区看到它。',
    danger: false,
  },
  delete: {
    link: '删除',
    title: '删除评论',
    what: '删除后包括作者在内的所有学员都看不到它。需要时仍可在这里筛选“已删除”后恢复显示。',
  },
  pin: {
    link: '置顶',
    title: '置顶评论',
    what: '置顶后它排在所在课程（或课时）评论区的最前面，带“置顶”标记。',
    danger: false,
  },
  unpin: { link: '取消置顶', title: '取消置顶', what: '取消后它按发表时间排回评论区。', danger: false },
  feature: {
    link: '设为精选',
    title: '设为精选评论',
    what: '精选评论在评论区带“精选”标记，学员一眼能看到优质评论。',
    danger: false,
  },
  unfeature: { link: '取消精选', title: '取消精选', what: '取消后它不再带“精选”标记。', danger: false },
}

/**
 * The actions a comment's row offers (its status actions, its type actions), each one the server takes
 * (moderation.ts): hide what shows, show what is hidden or deleted, delete what is not; pin or feature a shown,
 * public top-level comment (the server refuses replies; on what other learners cannot see it would do nothing),
 * and undo only the type it has (unpin a pinned one, unfeature a featured one).
 */
function offered(c: QueuedComment): [Action[], Action[]] {
  const status: Action[] = [c.status === 'shown' ? 'hide' : 'show']
  if (c.status !== 'deleted') status.push('delete')
  const type: Action[] =
    c.type === 'pinned'
      ? ['unpin']
      : c.type === 'featured'
        ? ['unfeature']
        : c.parent_id === null && c.status === 'shown' && !c.is_private
          ? ['pin', 'feature']
          : []
  return [status, type]
}

/** The member filter a member's page opens the list with (`member_id` in the URL), shown so that it can be removed. */
function MemberFilter() {
  const [search, setSearch] = useSearchParams()
  const id = search.get('member_id')
  const valid = id !== null && IdQuery.safeParse(id).success
  const remove = useCallback(
    (replace: boolean) => {
      setSearch(
        (current) => {
          const next = new URLSearchParams(current)
          next.delete('member_id')
          next.delete('page')
          return next
        },
        { replace },
      )
    },
    [setSearch],
  )
  // A member number typed into the address by hand that is not one: the whole list, not an error (replacing the
  // address, so that Back does not land on it again).
  useEffect(() => {
    if (id !== null && !valid) remove(true)
  }, [id, valid, remove])
  if (!valid) return null
  return (
    <Tag closable onClose={() => remove(false)} style={{ lineHeight: '30px', fontSize: 14 }}>
      只看会员 {id} 的评论
    </Tag>
  )
}

/**
 * 评论管理: every comment of every course (newest first), found by part of its text, status, type, course and day;
 * each row's actions hide, show again, delete, pin or feature it with a reason the staff action log keeps.
 * Learners see a change at once (their lists read the database on every request).
 */
export default function Comments() {
  const { may } = useMe()
  const client = useQueryClient()
  const [ask, dialog] = useReasonDialog()
  // A router link in the console's link colour (the learner pages' global style makes links inherit theirs).
  const { token } = theme.useToken()

  const moderate = (c: QueuedComment, action: Action) => {
    const a = actions[action]
    ask({
      title: a.title,
      okText: a.link,
      ...(a.danger === false && { danger: false }),
      label: '处理原因',
      schema: CommentModeration.shape.reason,
      content: (
        <>
          <p>
            {c.author.nickname || `会员 ${c.author.id}`} 在《{c.course.title}》的评论：「{c.content.slice(0, 60)}
            {c.content.length > 60 ? '…' : ''}」
          </p>
          <p>{a.what}原因会记入操作日志。</p>
        </>
      ),
      run: async (reason) => {
        await api.post(`${PATH}/${c.id}/moderate`, { action, reason })
        await client.invalidateQueries({ queryKey: tableKey(PATH) })
      },
    })
  }

  return (
    <>
      <ConsoleTable<QueuedComment>
        title="评论管理"
        help="学员只看到“显示中”的评论（“仅自己可见”的只有作者和被回复的人能看到）；隐藏后只有作者自己能看到，删除后谁都看不到。每次处理都要填写原因。"
        path={PATH}
        search="评论内容"
        filters={[
          selectFilter('status', '状态', commentStatusNames),
          selectFilter('type', '类型', commentTypeNames),
          { name: 'dates', label: '发表日期', type: 'dates' },
        ]}
        toolbar={
          <>
            <MemberFilter />
            {may('courses.read') && <CourseFilter />}
          </>
        }
        empty="没有符合条件的评论。换个关键词、状态或日期试试。"
        none="还没有评论。学员在课程页发表评论后会出现在这里。"
        columns={[
          {
            title: '内容',
            dataIndex: 'content',
            render: (text: string, c) => (
              <div style={{ maxWidth: 280, whiteSpace: 'normal', wordBreak: 'break-word' }}>
                {c.parent_id !== null && <Tag>回复</Tag>}
                {c.is_private && <Tag color="purple">仅自己可见</Tag>}
                {text}
              </div>
            ),
          },
          {
            title: '作者',
            key: 'author',
            render: (_, c) => {
              const name = c.author.nickname || `会员 ${c.author.id}`
              return (
                <div style={{ maxWidth: 96, whiteSpace: 'normal', wordBreak: 'break-word' }}>
                  {may('members.read') ? (
                    <Link to={`/admin/members/${c.author.id}`} style={{ color: token.colorLink }}>
                      {name}
                    </Link>
                  ) : (
                    name
                  )}
                </div>
              )
            },
          },
          {
            title: '课程',
            key: 'course',
            render: (_, c) => (
              <div style={{ maxWidth: 150, whiteSpace: 'normal' }}>
                {c.course.title || `课程 ${c.course.id}`}
                {c.video && <Typography.Text type="secondary"> · {c.video.title}</Typography.Text>}
              </div>
            ),
          },
          {
            title: '类型',
            dataIndex: 'type',
            render: (t: string) =>
              t === 'normal' ? (
                <Typography.Text type="secondary">—</Typography.Text>
              ) : (
                <Tag color={typeColors[t]}>{commentTypeNames[t] ?? t}</Tag>
              ),
          },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: string) => <Tag color={statusColors[s]}>{commentStatusNames[s] ?? s}</Tag>,
          },
          { title: '点赞', dataIndex: 'like_count', key: 'like_count', sorter: true, align: 'right' },
          // Newest first is the list's id order (the API sorts by id); the day above the time, to keep it narrow.
          {
            ...timeColumn<QueuedComment>('时间', 'created_at'),
            key: 'id',
            sorter: true,
            render: (iso: string) => <div style={{ width: 80, whiteSpace: 'normal' }}>{when(iso)}</div>,
          },
          // The status actions above the type actions: two short rows rather than one the screen cuts off.
          ...actionsColumn<QueuedComment>((c) => {
            const link = (action: Action) => (
              <Typography.Link
                key={action}
                type={action === 'delete' ? 'danger' : undefined}
                onClick={() => moderate(c, action)}
              >
                {actions[action].link}
              </Typography.Link>
            )
            const [status, type] = offered(c)
            return (
              <Space orientation="vertical" size={2}>
                <Space>{status.map(link)}</Space>
                {type.length > 0 && <Space>{type.map(link)}</Space>}
              </Space>
            )
          }),
        ]}
      />
      {dialog}
    </>
  )
}
