import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Form, Input, Modal, Tag, Typography } from 'antd'
import { useState } from 'react'
import type { ExchangeRecordRow } from '#server/modules/exchange/exchange.schema.ts'
import { ExchangeRecordRevoke, PlatformNames, Platforms } from '#shared/api/exchange.ts'
import { api } from '../lib/client.ts'
import { ConsoleTable } from '../lib/console-table.tsx'
import { when } from '../lib/format.ts'
import { pagedLoad } from '../lib/list.ts'
import { zodRule } from '../lib/zod-rule.ts'

/** Every exchange of a platform order: who, which order line, what it granted; an operator may take one back. */
export default function ExchangeRecords() {
  const { message } = App.useApp()
  const client = useQueryClient()
  const [revoking, setRevoking] = useState<ExchangeRecordRow | null>(null)
  const [form] = Form.useForm<{ reason: string }>()

  const revoke = useMutation({
    mutationFn: (v: { id: number; reason: string }) =>
      api.post<{ revoked: number; voucher_returned: boolean }>(`/admin/exchange/records/${v.id}/revoke`, {
        reason: v.reason,
      }),
    onSuccess: (r) => {
      message.success(r.voucher_returned ? '已收回，团购券已在抖音撤销核销' : '已收回')
      setRevoking(null)
      void client.invalidateQueries({ queryKey: ['table', 'exchange-records'] })
    },
    onError: (e) => message.error(e.message),
  })

  return (
    <>
      <Typography.Title level={4}>兑换记录</Typography.Title>
      <ConsoleTable<ExchangeRecordRow>
        id="exchange-records"
        rowKey="id"
        search={false}
        filters={[
          {
            name: 'platform',
            label: '平台',
            type: 'select',
            options: Platforms.map((p) => ({ value: p, label: PlatformNames[p] })),
          },
          {
            name: 'status',
            label: '状态',
            type: 'select',
            options: [
              { value: 'granted', label: '有效' },
              { value: 'revoked', label: '已收回' },
            ],
          },
          { name: 'order_id', label: '订单号', type: 'text' },
          { name: 'member_id', label: '会员 ID', type: 'text' },
        ]}
        load={pagedLoad<ExchangeRecordRow>('/admin/exchange/records')}
        empty="还没有兑换记录。"
        columns={[
          { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, width: 80 },
          { title: '平台', dataIndex: 'platform_name' },
          { title: '订单号', dataIndex: 'order_id' },
          { title: '商品', dataIndex: 'product_name' },
          { title: '会员', key: 'member', render: (_, r) => `${r.member_phone ?? ''}（${r.member_id}）` },
          {
            title: '兑换为',
            key: 'grants',
            render: (_, r) => (r.vip_days ? `VIP ${r.vip_days} 天` : (r.course_title ?? `课程 ${r.course_id}`)),
          },
          { title: '兑换时间', dataIndex: 'granted_at', key: 'granted_at', sorter: true, render: when },
          {
            title: '状态',
            key: 'status',
            render: (_, r) =>
              r.status === 'granted' ? (
                <Tag color="green">有效</Tag>
              ) : (
                <span>
                  <Tag>已收回</Tag>
                  {when(r.revoked_at)} {r.revoke_reason}
                </span>
              ),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, r) =>
              r.status === 'granted' ? (
                <a
                  onClick={() => {
                    form.resetFields()
                    setRevoking(r)
                  }}
                >
                  收回
                </a>
              ) : null,
          },
        ]}
      />
      <Modal
        title={revoking ? `收回兑换：${revoking.product_name}` : ''}
        open={revoking !== null}
        okText="确认收回"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        confirmLoading={revoke.isPending}
        onOk={async () => {
          const v = await form.validateFields()
          revoke.mutate({ id: revoking!.id, reason: v.reason })
        }}
        onCancel={() => setRevoking(null)}
        destroyOnHidden
      >
        <p>将收回该会员通过这笔订单获得的课程或 VIP 天数；一小时内核销的抖音团购券会在抖音撤销核销，券退回给买家。</p>
        <Form form={form} layout="vertical">
          <Form.Item label="原因" name="reason" rules={[zodRule(ExchangeRecordRevoke.shape.reason)]}>
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  )
}
