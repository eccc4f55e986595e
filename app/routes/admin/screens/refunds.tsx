import { Tag, Typography } from 'antd'
import type { StaffRefund } from '#server/modules/refunds/refunds.schema.ts'
import { RejectBody } from '#shared/api/refunds.ts'
import { api } from '../lib/client.ts'
import { useConfirm } from '../lib/confirm.tsx'
import { ReasonField } from '../lib/fields.tsx'
import { actionsColumn, memberColumn, moneyColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey, useDetailParam } from '../lib/console-table.tsx'
import { KeyHint, useQueueKeys } from '../lib/queue-keys.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { yuan } from '../lib/format.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { useMe } from '../lib/me.ts'
import { useStepUp } from '../lib/step-up.tsx'
import { refundStateNames } from './names.ts'
import { OrderDrawer } from './orders.tsx'

/** A per-course refund's courses with their shares. */
const lineTitles = (r: StaffRefund) => (r.lines ?? []).map((l) => `《${l.title}》${yuan(l.amount_fen)}`).join('、')

/**
 * Refunds: approve (after a fresh SMS code), reject with a reason the member sees, send a failed one again (a
 * refusal, e.g. a refund already decided elsewhere, stays in the confirmation with its reason). The
 * list opens on the requests waiting for a decision. Keyboard: / searches, J/↓ and K/↑ move through the queue,
 * Enter opens the current refund's order (its lines and event log) in a drawer.
 */
export default function Refunds() {
  const confirm = useConfirm()
  const { may } = useMe()
  const stepUp = useStepUp()
  const editor = useEditor<StaffRefund, { note: string }>('refund_reject', () => ({}))
  const rejecting = editor.editing
  const [opened, showOrder] = useDetailParam()
  const queue = useQueueKeys<StaffRefund>((r) => r.refund_no, { Enter: (r) => showOrder(r.order_no) })

  const act = useWrite(
    async ({ r, action, body }: { r: StaffRefund; action: 'approve' | 'reject' | 'retry'; body?: object }) => {
      if (action === 'approve' && !(await stepUp())) throw new Error('未完成短信验证，操作没有执行')
      return api.post<StaffRefund>(`/admin/refunds/${r.refund_no}/${action}`, body ?? {})
    },
    (r) => `退款 ${r.refund_no}：${refundStateNames[r.state]}`,
    [tableKey('/admin/refunds')],
  )

  const approve = (r: StaffRefund) =>
    confirm({
      title: '同意退款',
      content: r.lines
        ? `将向会员 ${r.phone ?? r.member_id} 原路退回 ${yuan(r.amount_fen)}（订单 ${r.order_no} 中的 ${lineTitles(r)}），只收回这些课程的权限。需要短信验证。`
        : `将向会员 ${r.phone ?? r.member_id} 原路退回 ${yuan(r.amount_fen)}（订单 ${r.order_no}「${r.order_title}」），并收回对应的课程权限。需要短信验证。`,
      okText: `同意并退款 ${yuan(r.amount_fen)}`,
      run: () => act.mutateAsync({ r, action: 'approve' }),
    })
  const retry = (r: StaffRefund) =>
    confirm({
      title: '重新发起退款',
      content: `将用同一退款单号 ${r.refund_no} 再次向支付平台发起 ${yuan(r.amount_fen)} 的退款。上次失败原因：${r.last_error ?? '未知'}`,
      okText: '重新发起',
      run: () => act.mutateAsync({ r, action: 'retry' }),
    })

  const decide = may('refunds.approve')
  return (
    <>
      <ConsoleTable<StaffRefund>
        title="退款"
        rowKey="refund_no"
        path="/admin/refunds"
        csv="refunds.read"
        search="退款单号、手机号、会员ID"
        help={<KeyHint search keys={{ Enter: '打开订单详情' }} />}
        onRows={queue.onRows}
        onRow={queue.onRow}
        filters={[selectFilter('state', '状态', refundStateNames)]}
        empty="没有符合条件的退款申请。"
        none="还没有退款申请。学员在订单里申请退款后会出现在这里。"
        columns={[
          {
            // One column for the refund and its order (the order's number, then its title): at 1280 px the two
            // long numbers side by side left no room for 申请时间.
            title: '退款单号 / 订单',
            dataIndex: 'refund_no',
            ellipsis: true,
            render: (no: string, r) => (
              <>
                <a onClick={() => showOrder(r.order_no)}>{no}</a>
                <br />
                <Typography.Text type="secondary">{r.order_no}</Typography.Text>
                <br />
                <Typography.Text type="secondary" title={r.order_title}>
                  {r.order_title}
                </Typography.Text>
              </>
            ),
          },
          {
            title: '退款内容',
            key: 'lines',
            render: (_, r) => (r.lines ? lineTitles(r) : <Typography.Text type="secondary">整单退款</Typography.Text>),
          },
          moneyColumn('金额', 'amount_fen', true),
          memberColumn(),
          { title: '原因', dataIndex: 'reason', ellipsis: true },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: string, r) => (
              <Tag color={s === 'failed' ? 'red' : s === 'requested' ? 'orange' : undefined} title={r.last_error ?? ''}>
                {refundStateNames[s] ?? s}
              </Tag>
            ),
          },
          timeColumn('申请时间', 'created_at', true),
          ...actionsColumn<StaffRefund>((r) => (
            <>
              {decide && r.state === 'requested' && (
                <>
                  <a onClick={() => approve(r)}>同意</a>
                  <a onClick={() => editor.open(r)}>拒绝</a>
                </>
              )}
              {decide && r.retryable && <a onClick={() => retry(r)}>重试</a>}
            </>
          )),
        ]}
      />
      <FormDialog
        {...editor.dialog}
        title={`拒绝退款 ${rejecting?.refund_no ?? ''}`}
        save={{
          isPending: act.isPending,
          mutateAsync: (body: { note: string }) => act.mutateAsync({ r: rejecting!, action: 'reject', body }),
        }}
        okText="确认拒绝"
        danger
        destroyOnHidden
      >
        <p>拒绝后订单恢复为已支付，会员保留课程。原因会显示给会员（{rejecting?.phone ?? rejecting?.member_id}）。</p>
        <ReasonField label="拒绝原因" name="note" schema={RejectBody.shape.note} rows={3} />
      </FormDialog>
      <OrderDrawer orderNo={opened} onClose={() => showOrder(null)} />
    </>
  )
}
