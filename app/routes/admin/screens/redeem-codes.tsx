import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Form, Input, Modal, Tag, Typography } from 'antd'
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import type { RedeemCodeRow } from '#server/modules/redeem/redeem.schema.ts'
import { RedeemCodeRevoke } from '#shared/api/redeem.ts'
import { api } from '../lib/client.ts'
import { ConsoleTable } from '../lib/console-table.tsx'
import { when } from '../lib/format.ts'
import { pagedLoad } from '../lib/list.ts'
import { zodRule } from '../lib/zod-rule.ts'
import { redeemCodeStateNames } from './names.ts'

const states = Object.entries(redeemCodeStateNames).map(([value, label]) => ({ value, label }))
const stateColor: Record<RedeemCodeRow['state'], string | undefined> = {
  unused: undefined,
  used: 'green',
  revoked: 'red',
}

/**
 * The codes of one batch by serial and state, with who used each (the codes themselves are not kept); finding a
 * code as a learner reports it; voiding a code, which takes back what its uses granted.
 */
export default function RedeemCodes() {
  const batchId = Number(useParams().id)
  const { message } = App.useApp()
  const client = useQueryClient()
  const [revoking, setRevoking] = useState<RedeemCodeRow | null>(null)
  const [form] = Form.useForm<{ reason: string }>()

  const revoke = useMutation({
    mutationFn: ({ row, reason }: { row: RedeemCodeRow; reason: string }) =>
      api.post<{ revoked_uses: number; revoked_courses: number }>(`/admin/redeem/codes/${row.id}/revoke`, { reason }),
    onSuccess: (r) => {
      message.success(`已作废，收回 ${r.revoked_uses} 次兑换（${r.revoked_courses} 门课程授权）`)
      setRevoking(null)
      void client.invalidateQueries({ queryKey: ['table', 'redeem-codes'] })
    },
    onError: (e) => message.error(e.message),
  })

  return (
    <>
      <Typography.Title level={4}>
        <Link to="/admin/marketing/redeem">兑换码</Link> / 批次 {batchId}
      </Typography.Title>
      <ConsoleTable<RedeemCodeRow>
        id="redeem-codes"
        rowKey="id"
        search={false}
        filters={[
          { name: 'state', label: '状态', type: 'select', options: states },
          { name: 'code', label: '按兑换码查找', type: 'text' },
        ]}
        load={pagedLoad<RedeemCodeRow>('/admin/redeem/codes', { batch_id: batchId })}
        empty="没有符合条件的兑换码。"
        columns={[
          { title: '序号', dataIndex: 'serial', sorter: true },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: RedeemCodeRow['state']) => <Tag color={stateColor[s]}>{redeemCodeStateNames[s]}</Tag>,
          },
          { title: '已用次数', dataIndex: 'uses' },
          { title: '使用会员', dataIndex: 'member', render: (m: string | null, r) => m ?? r.member_id ?? '—' },
          { title: '使用时间', dataIndex: 'used_at', render: when },
          {
            title: '操作',
            key: 'actions',
            render: (_, r) =>
              r.state !== 'revoked' && (
                <a
                  onClick={() => {
                    form.resetFields()
                    setRevoking(r)
                  }}
                >
                  作废
                </a>
              ),
          },
        ]}
      />
      <Modal
        title={`作废兑换码（序号 ${revoking?.serial ?? ''}）`}
        open={revoking !== null}
        okText="确认作废"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        confirmLoading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onOk={async () => {
          const { reason } = await form.validateFields()
          if (revoking) revoke.mutate({ row: revoking, reason })
        }}
        destroyOnHidden
      >
        <p>
          作废后这个兑换码不能再使用
          {revoking?.state === 'used' ? `，并收回 ${revoking.member ?? '会员'} 用它兑换的课程或 VIP 天数` : ''}
          。此操作不能撤销。
        </p>
        <Form form={form} layout="vertical">
          <Form.Item label="作废原因" name="reason" rules={[zodRule(RedeemCodeRevoke.shape.reason)]}>
            <Input.TextArea rows={2} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  )
}
