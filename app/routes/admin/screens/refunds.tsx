import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Form, Input, Modal, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import type { StaffRefund } from '#server/modules/refunds/refunds.schema.ts'
import { RejectBody } from '#shared/api/refunds.ts'
import { api } from '../lib/client.ts'
import { ConsoleTable } from '../lib/console-table.tsx'
import { csvExport, pagedLoad } from '../lib/list.ts'
import { when, yuan } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { useStepUp } from '../lib/step-up.tsx'
import { zodRule } from '../lib/zod-rule.ts'
import { refundStateNames } from './names.ts'

/** A per-course refund's courses with their shares. */
const lineTitles = (r: StaffRefund) => (r.lines ?? []).map((l) => `《${l.title}》${yuan(l.amount_fen)}`).join('、')

const states = Object.entries(refundStateNames).map(([value, label]) => ({ value, label }))

/**
 * Refunds: approve (after a fresh SMS code), reject with a reason the member sees, send a failed one again. The
 * list opens on the requests waiting for a decision.
 */
export default function Refunds() {
  const { message, modal } = App.useApp()
  const { may } = useMe()
  const stepUp = useStepUp()
  const client = useQueryClient()
  const [rejecting, setRejecting] = useState<StaffRefund | null>(null)
  const [form] = Form.useForm<{ note: string }>()

  const act = useMutation({
    mutationFn: async ({
      r,
      action,
      body,
    }: {
      r: StaffRefund
      action: 'approve' | 'reject' | 'retry'
      body?: object
    }) => {
      if (action === 'approve' && !(await stepUp())) throw new Error('已取消')
      return api.post<StaffRefund>(`/admin/refunds/${r.refund_no}/${action}`, body ?? {})
    },
    onSuccess: (r) => {
      message.success(`退款 ${r.refund_no}：${refundStateNames[r.state]}`)
      setRejecting(null)
      void client.invalidateQueries({ queryKey: ['table', 'refunds'] })
    },
    onError: (e) => message.error(e.message),
  })

  const approve = (r: StaffRefund) =>
    modal.confirm({
      title: '同意退款',
      content: r.lines
        ? `将向会员 ${r.phone ?? r.member_id} 原路退回 ${yuan(r.amount_fen)}（订单 ${r.order_no} 中的 ${lineTitles(r)}），只收回这些课程的权限。需要短信验证。`
        : `将向会员 ${r.phone ?? r.member_id} 原路退回 ${yuan(r.amount_fen)}（订单 ${r.order_no}「${r.order_title}」），并收回对应的课程权限。需要短信验证。`,
      okText: `同意并退款 ${yuan(r.amount_fen)}`,
      cancelText: '取消',
      onOk: () => act.mutate({ r, action: 'approve' }),
    })
  const retry = (r: StaffRefund) =>
    modal.confirm({
      title: '重新发起退款',
      content: `将用同一退款单号 ${r.refund_no} 再次向支付平台发起 ${yuan(r.amount_fen)} 的退款。上次失败原因：${r.last_error ?? '未知'}`,
      okText: '重新发起',
      cancelText: '取消',
      onOk: () => act.mutate({ r, action: 'retry' }),
    })

  const decide = may('refunds.approve')
  return (
    <>
      <Typography.Title level={4}>退款</Typography.Title>
      <ConsoleTable<StaffRefund>
        id="refunds"
        rowKey="refund_no"
        searchPlaceholder="退款单号、手机号或会员ID"
        filters={[{ name: 'state', label: '状态', type: 'select', options: states }]}
        load={pagedLoad<StaffRefund>('/admin/refunds')}
        onExport={csvExport('/admin/refunds')}
        empty="没有符合条件的退款申请。"
        columns={[
          { title: '退款单号', dataIndex: 'refund_no' },
          { title: '订单', dataIndex: 'order_title', ellipsis: true },
          {
            title: '退款课程',
            key: 'lines',
            render: (_, r) => (r.lines ? lineTitles(r) : <Typography.Text type="secondary">整单</Typography.Text>),
          },
          { title: '金额', dataIndex: 'amount_fen', key: 'amount_fen', sorter: true, align: 'right', render: yuan },
          { title: '会员', dataIndex: 'phone', render: (p: string | null, r) => p ?? r.member_id },
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
          { title: '申请时间', dataIndex: 'created_at', key: 'created_at', sorter: true, render: when },
          {
            title: '操作',
            key: 'actions',
            render: (_, r) =>
              decide && (
                <Space>
                  {r.state === 'requested' && (
                    <>
                      <a onClick={() => approve(r)}>同意</a>
                      <a
                        onClick={() => {
                          form.resetFields()
                          setRejecting(r)
                        }}
                      >
                        拒绝
                      </a>
                    </>
                  )}
                  {r.retryable && <a onClick={() => retry(r)}>重试</a>}
                </Space>
              ),
          },
        ]}
      />
      <Modal
        title={`拒绝退款 ${rejecting?.refund_no ?? ''}`}
        open={rejecting !== null}
        okText="确认拒绝"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        confirmLoading={act.isPending}
        onCancel={() => setRejecting(null)}
        onOk={async () => {
          const { note } = await form.validateFields()
          if (rejecting) act.mutate({ r: rejecting, action: 'reject', body: { note } })
        }}
        destroyOnHidden
      >
        <p>拒绝后订单恢复为已支付，会员保留课程。原因会显示给会员（{rejecting?.phone ?? rejecting?.member_id}）。</p>
        <Form form={form} layout="vertical">
          <Form.Item label="拒绝原因" name="note" rules={[zodRule(RejectBody.shape.note)]}>
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  )
}
