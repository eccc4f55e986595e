import { useQuery } from '@tanstack/react-query'
import { Alert, App, Button, Descriptions, Drawer, Form, Input, Space, Table, Tag, Timeline, Typography } from 'antd'
import type { StaffEnrolmentDetail } from '#server/modules/tuition/tuition.schema.ts'
import { ExtendDueBody } from '#shared/api/tuition.ts'
import { enrolmentStateNames } from '#shared/tuition-names.ts'
import { api, openFile } from '../lib/client.ts'
import { actionsColumn, moneyColumn } from '../lib/columns.tsx'
import { useConfirm } from '../lib/confirm.tsx'
import { tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { ReasonField } from '../lib/fields.tsx'
import { FormDialog } from '../lib/form-dialog.tsx'
import { beijingInput, isoFromBeijing, when, yuan } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { useStepUp } from '../lib/step-up.tsx'
import { withRequired, zodRule } from '../lib/zod-rule.ts'
import { actorName, enrolmentEventNames, enrolmentStateColors } from './tuition-names.ts'

type Detail = StaffEnrolmentDetail

/** The new due date: typed in Beijing time, checked as the ISO instant the API takes. */
const dueRules = withRequired(
  '请选择新的到期时间',
  zodRule(ExtendDueBody.shape.due_at, (v) => isoFromBeijing(v as string)),
)
type Payment = Detail['schedule'][number]

const paymentStatus: Record<Payment['status'], [string, string]> = {
  paid: ['已缴', 'green'],
  due: ['待缴', 'blue'],
  overdue: ['已逾期', 'red'],
  refunded: ['已退款', 'default'],
}

/** An event's particulars: the new due date and why, the amount paid, the refund. */
function eventNote(e: Detail['events'][number]) {
  const d = e.data ?? {}
  if (e.reason === 'due_extended') return `延至 ${when(d.to as string)}，原因：${d.reason as string}`
  if (e.reason === 'paid' && typeof d.amount_fen === 'number')
    return `${yuan(d.amount_fen)}（订单 ${d.order_no as string}）`
  if (typeof d.refund_fen === 'number') return `退款 ${yuan(d.refund_fen)}`
  return ''
}

/**
 * One enrolment: who, which course and plan, the payment schedule (a due payment's date can be extended with a
 * reason), the contract (its PDF, and 校验 against the hash frozen at signing), the event log, and an exit request
 * to approve (after a fresh SMS code, the refund named first).
 */
export default function EnrolmentDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { message, modal } = App.useApp()
  const confirm = useConfirm()
  const { may } = useMe()
  const stepUp = useStepUp()
  const key = ['enrolment', id]
  const detail = useQuery({
    queryKey: key,
    queryFn: () => api.get<Detail>(`/admin/enrolments/${id}`),
    enabled: id !== null,
  })
  const e = detail.data
  const refresh = [key, tableKey('/admin/enrolments')]
  const editor = useEditor<Payment, { due_at: string; reason: string }>('extend_due', (p) => ({
    due_at: beijingInput(p?.due_at),
    reason: '',
  }))
  const extend = useWrite(
    (v: { due_at: string; reason: string }) =>
      api.post(`/admin/tuition-payments/${editor.editing!.id}/extend`, {
        due_at: isoFromBeijing(v.due_at),
        reason: v.reason,
      }),
    '已延期，已记入报名记录',
    refresh,
  )
  const approve = useWrite(
    async () => {
      if (!(await stepUp())) throw new Error('未完成短信验证，操作没有执行')
      return api.post<{ refunds: { amount_fen: number }[] }>(`/admin/enrolments/${id}/exit/approve`)
    },
    (r) => `已批准退学，发起 ${r.refunds.length} 笔退款`,
    [...refresh, tableKey('/admin/refunds')],
  )
  const verify = useWrite(
    (contractId: number) =>
      api.get<{ valid: boolean; expected: string; actual: string | null }>(`/admin/contracts/${contractId}/verify`),
    (r) => (r.valid ? '校验通过：合同文件与签署时的 SHA-256 一致' : '校验未通过'),
    [],
  )
  const check = (contractId: number) =>
    verify.mutate(contractId, {
      onSuccess: (r) => {
        if (!r.valid)
          modal.error({
            title: '合同文件校验未通过',
            content: `签署时：${r.expected}\n现在：${r.actual ?? '文件不存在'}。文件可能被改动，请联系技术人员。`,
          })
      },
    })
  const askApprove = (d: Detail) => {
    const q = d.exit_quote!
    confirm({
      title: `批准 ${d.name ?? d.phone ?? d.member_id} 退学？`,
      content: `按合同退还 ${yuan(q.refund_fen)}（已缴 ${yuan(q.paid_fen)}，已学 ${q.used_days}/${q.study_days} 天，手续费 ${yuan(q.exit_fee_fen)}），分 ${q.payments.length} 笔原路退回；《${d.course_title}》的学习权限立即结束。需要短信验证。`,
      okText: `批准并退款 ${yuan(q.refund_fen)}`,
      danger: true,
      run: () => approve.mutateAsync(undefined),
    })
  }
  const manage = may('tuition.manage')

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      title={e ? `报名 ${e.id}：${e.name ?? e.phone ?? ''}` : `报名 ${id ?? ''}`}
      size={720}
    >
      {detail.error && <div className="zx-console-error">{detail.error.message}</div>}
      {e && (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {e.exit_quote && (
            <Alert
              type="warning"
              showIcon
              message={`学员申请退学（${when(e.exit_requested_at)}），按合同应退 ${yuan(e.exit_quote.refund_fen)}`}
              description={`已缴 ${yuan(e.exit_quote.paid_fen)}，已学 ${e.exit_quote.used_days}/${e.exit_quote.study_days} 天，扣手续费 ${yuan(e.exit_quote.exit_fee_fen)}。`}
              action={
                may('refunds.approve') && (
                  <Button danger onClick={() => askApprove(e)}>
                    批准退学
                  </Button>
                )
              }
            />
          )}
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label="学员">
              {e.name ?? '—'}（{e.phone ?? '未绑定手机'}，会员 {e.member_id}）
            </Descriptions.Item>
            <Descriptions.Item label="状态">
              <Tag color={enrolmentStateColors[e.state]}>{enrolmentStateNames[e.state]}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="体系课">{e.course_title}</Descriptions.Item>
            <Descriptions.Item label="学费方案">{e.plan_title}</Descriptions.Item>
            <Descriptions.Item label="已缴 / 总学费">
              {yuan(e.paid_fen)} / {yuan(e.total_fen)}
            </Descriptions.Item>
            <Descriptions.Item label="学习期">
              {e.started_at ? `${when(e.started_at)} 至 ${when(e.expires_at)}` : '未开课'}
            </Descriptions.Item>
            <Descriptions.Item label="休学">
              {e.pause_until ? `休学至 ${when(e.pause_until)}` : '—'}（累计 {e.paused_days} 天）
            </Descriptions.Item>
            <Descriptions.Item label="报名时间">{when(e.created_at)}</Descriptions.Item>
          </Descriptions>

          <section>
            <Typography.Title level={5}>缴费计划</Typography.Title>
            <Table<Payment>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={e.schedule}
              columns={[
                { title: '期次', dataIndex: 'label' },
                moneyColumn('金额', 'amount_fen'),
                { title: '到期', dataIndex: 'due_at', render: (d: string | null) => (d ? when(d) : '签约后') },
                {
                  title: '状态',
                  dataIndex: 'status',
                  render: (s: Payment['status']) => <Tag color={paymentStatus[s][1]}>{paymentStatus[s][0]}</Tag>,
                },
                {
                  title: '支付',
                  key: 'paid',
                  render: (_, p) => (p.paid_at ? `${when(p.paid_at)} ${p.order_no ?? ''}` : '—'),
                },
                ...actionsColumn<Payment>(
                  (p) =>
                    p.due_at !== null &&
                    p.status !== 'paid' &&
                    p.status !== 'refunded' &&
                    e.state !== 'exited' && <a onClick={() => editor.open(p)}>延期</a>,
                  manage,
                ),
              ]}
            />
          </section>

          <section>
            <Typography.Title level={5}>合同</Typography.Title>
            {!e.contract ? (
              <Typography.Text type="secondary">这个方案不需要合同。</Typography.Text>
            ) : e.contract.signed_at ? (
              <Space wrap>
                <span>
                  合同 {e.contract.id}：{e.contract.real_name} 于 {when(e.contract.signed_at)} 签署
                </span>
                <Typography.Text code title={e.contract.sha256 ?? ''}>
                  SHA-256 {e.contract.sha256?.slice(0, 12)}…
                </Typography.Text>
                <Button
                  onClick={() =>
                    openFile(`/admin/contracts/${e.contract!.id}/pdf`).catch((err: Error) => message.error(err.message))
                  }
                >
                  查看 PDF
                </Button>
                <Button loading={verify.isPending} onClick={() => check(e.contract!.id)}>
                  校验
                </Button>
              </Space>
            ) : (
              <Typography.Text type="secondary">
                合同 {e.contract.id} 待学员签署（链接 /contract/{e.contract.id}）。
              </Typography.Text>
            )}
          </section>

          <section>
            <Typography.Title level={5}>报名记录</Typography.Title>
            <Timeline
              items={e.events.map((v) => ({
                color: v.reason === 'overdue' ? 'red' : v.reason === 'due_extended' ? 'orange' : undefined,
                content: (
                  <>
                    <b>{enrolmentEventNames[v.reason] ?? v.reason}</b>
                    {v.from_state !== v.to_state && (
                      <span>
                        {' '}
                        {v.from_state ? `${enrolmentStateNames[v.from_state]} → ` : ''}
                        {enrolmentStateNames[v.to_state]}
                      </span>
                    )}
                    <div>{eventNote(v)}</div>
                    <Typography.Text type="secondary">
                      {when(v.created_at)} · {actorName(v.actor)}
                    </Typography.Text>
                  </>
                ),
              }))}
            />
          </section>
        </Space>
      )}
      <FormDialog
        {...editor.dialog}
        title={`延期：${editor.editing?.label ?? ''}（${editor.editing ? yuan(editor.editing.amount_fen) : ''}）`}
        save={extend}
        okText="确认延期"
        destroyOnHidden
        footnote="延期会记入报名记录（谁、为什么）。欠费暂停的学员付清或延期后恢复学习。"
      >
        <Form.Item label="新的到期时间（北京时间）" name="due_at" rules={dueRules}>
          <Input type="datetime-local" />
        </Form.Item>
        <ReasonField label="延期原因" name="reason" schema={ExtendDueBody.shape.reason} />
      </FormDialog>
    </Drawer>
  )
}
