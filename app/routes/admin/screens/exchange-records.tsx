import { Tag } from 'antd'
import type { ExchangeRecordRow } from '#server/modules/exchange/exchange.schema.ts'
import { ExchangeRecordRevoke } from '#shared/api/exchange.ts'
import { PlatformNames } from '#shared/exchange-platforms.ts'
import { api } from '../lib/client.ts'
import { ReasonField } from '../lib/fields.tsx'
import { actionsColumn, idColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { when } from '../lib/format.ts'
import { FormDialog } from '../lib/form-dialog.tsx'

type Revoke = { reason: string }

/** Every exchange of a platform order: who, which order line, what it granted; an operator may take one back. */
export default function ExchangeRecords() {
  const editor = useEditor<ExchangeRecordRow, Revoke>('exchange_revoke', () => ({}))
  const revoke = useWrite(
    (v: Revoke) =>
      api.post<{ revoked: number; voucher_returned: boolean }>(
        `/admin/exchange/records/${editor.editing!.id}/revoke`,
        v,
      ),
    (r) => (r.voucher_returned ? '已收回，团购券已在抖音撤销核销' : '已收回'),
    [tableKey('/admin/exchange/records')],
  )

  return (
    <>
      <ConsoleTable<ExchangeRecordRow>
        title="兑换记录"
        path="/admin/exchange/records"
        search={false}
        filters={[
          selectFilter('platform', '平台', PlatformNames),
          selectFilter('status', '状态', { granted: '有效', revoked: '已收回' }),
          { name: 'order_id', label: '订单号', type: 'text' },
          { name: 'member_id', label: '会员 ID', type: 'text' },
        ]}
        empty="还没有兑换记录。"
        columns={[
          idColumn('ID', 80),
          { title: '平台', dataIndex: 'platform_name' },
          { title: '订单号', dataIndex: 'order_id' },
          { title: '商品', dataIndex: 'product_name' },
          { title: '会员', key: 'member', render: (_, r) => `${r.member_phone ?? ''}（${r.member_id}）` },
          {
            title: '兑换为',
            key: 'grants',
            render: (_, r) => (r.vip_days ? `VIP ${r.vip_days} 天` : (r.course_title ?? `课程 ${r.course_id}`)),
          },
          timeColumn('兑换时间', 'granted_at', true),
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
          ...actionsColumn<ExchangeRecordRow>(
            (r) => r.status === 'granted' && <a onClick={() => editor.open(r)}>收回</a>,
          ),
        ]}
      />
      <FormDialog
        {...editor.dialog}
        title={editor.editing ? `收回兑换：${editor.editing.product_name}` : ''}
        save={revoke}
        okText="确认收回"
        danger
        destroyOnHidden
      >
        <p>将收回该会员通过这笔订单获得的课程或 VIP 天数；一小时内核销的抖音团购券会在抖音撤销核销，券退回给买家。</p>
        <ReasonField label="原因" name="reason" schema={ExchangeRecordRevoke.shape.reason} />
      </FormDialog>
    </>
  )
}
