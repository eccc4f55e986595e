import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Tag, Typography } from 'antd'
import { useCallback, useRef } from 'react'
import type { ReportedComment } from '#server/modules/comments/comments.schema.ts'
import { CommentReportReasonNames } from '#shared/comment-report-reasons.ts'
import { api } from '../lib/client.ts'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { actionsColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { KeyHint, useQueueKeys } from '../lib/queue-keys.tsx'
import { commentStatusNames } from './names.ts'

/**
 * The reported comments, the most reported first. Keyboard: J / K move to the next / previous comment, A keeps it
 * (reports were unfounded), H hides it (after a confirmation). Either decision clears its reports, so the queue
 * moves on.
 */
export default function ReportedComments() {
  const { message } = App.useApp()
  const confirm = useDangerConfirm()
  const client = useQueryClient()
  const confirming = useRef(false)

  const decide = useMutation({
    mutationFn: ({ c, action }: { c: ReportedComment; action: 'show' | 'hide' }) =>
      api.post(`/admin/comments/${c.id}/moderate`, {
        action,
        reason:
          action === 'show'
            ? '举报核实：未违规，保留'
            : `举报核实：${c.reasons.map((r) => CommentReportReasonNames[r]).join('、')}`,
      }),
    onSuccess: (_r, { c, action }) => {
      message.success(action === 'show' ? `已保留评论 ${c.id}，举报已处理` : `已隐藏评论 ${c.id}`)
      void client.invalidateQueries({ queryKey: tableKey('/admin/comments/reported') })
    },
    onError: (e) => message.error(e.message),
  })

  const keep = useCallback((c: ReportedComment) => decide.mutate({ c, action: 'show' }), [decide])
  const hide = useCallback(
    (c: ReportedComment) => {
      confirming.current = true
      confirm({
        title: '隐藏评论',
        content: `隐藏 ${c.author.nickname || `会员 ${c.author.id}`} 的评论「${c.content.slice(0, 40)}」（${c.open_reports} 次举报）？隐藏后其他学员看不到它，作者自己仍能看到。`,
        okText: '隐藏',
        run: () => decide.mutateAsync({ c, action: 'hide' }),
        afterClose: () => (confirming.current = false),
      })
    },
    [decide, confirm],
  )

  const queue = useQueueKeys<ReportedComment>((c) => c.id, { a: keep, h: hide }, confirming)

  return (
    <ConsoleTable<ReportedComment>
      title="举报队列"
      help={<KeyHint keys={{ A: '保留（举报不成立）', H: '隐藏' }} note="处理后举报清零，下一条自动排到前面。" />}
      path="/admin/comments/reported"
      search={false}
      filters={[selectFilter('state', '待处理', { open: '待处理', all: '全部（含已处理）' })]}
      onRows={queue.onRows}
      empty="没有待处理的举报。学员在评论区点“举报”后，评论会出现在这里。"
      onRow={queue.onRow}
      columns={[
        { title: '举报', dataIndex: 'open_reports', key: 'reports', sorter: true, width: 70, align: 'right' },
        {
          title: '评论',
          dataIndex: 'content',
          render: (text: string, c) => (
            <div style={{ maxWidth: 420 }}>
              <div>{text}</div>
              {c.details.length > 0 && (
                <Typography.Text type="secondary">举报说明：{c.details.join('；')}</Typography.Text>
              )}
            </div>
          ),
        },
        {
          title: '原因',
          dataIndex: 'reasons',
          render: (rs: ReportedComment['reasons']) =>
            rs.map((r) => (
              <Tag key={r} color="orange">
                {CommentReportReasonNames[r]}
              </Tag>
            )),
        },
        { title: '作者', key: 'author', render: (_, c) => c.author.nickname || c.author.id },
        { title: '课程', key: 'course', render: (_, c) => c.course.title, ellipsis: true },
        { title: '状态', dataIndex: 'status', render: (s: string) => commentStatusNames[s] ?? s },
        timeColumn('最近举报', 'last_reported_at', true),
        ...actionsColumn<ReportedComment>((c) => (
          <>
            <a onClick={() => keep(c)}>保留</a>
            <a onClick={() => hide(c)}>隐藏</a>
          </>
        )),
      ]}
    />
  )
}
