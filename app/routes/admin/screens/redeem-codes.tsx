import { Typography } from 'antd'
import { Link, useParams } from 'react-router'
import type { RedeemCodeRow } from '#server/modules/redeem/redeem.schema.ts'
import { RedeemCodeRevoke } from '#shared/api/redeem.ts'
import { api } from '../lib/client.ts'
import { ReasonField } from '../lib/fields.tsx'
import { actionsColumn, stateColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { redeemCodeStateNames } from './names.ts'

const stateColor: Record<RedeemCodeRow['state'], string | undefined> = {
  unused: undefined,
  used: 'green',
  revoked: 'red',
}

type Revoke = { reason: string }

/**
 * The codes of one batch by serial and state, with who used each (the codes themselves are not kept); finding a
 * code as a learner reports it; voiding a code, which takes back what its uses granted.
 */
export default function RedeemCodes() {
  const batchId = Number(useParams().id)
  const editor = useEditor<RedeemCodeRow, Revoke>('code_revoke', () => ({}))
  const revoking = editor.editing
  const revoke = useWrite(
    (v: Revoke) =>
      api.post<{ revoked_uses: number; revoked_courses: number }>(`/admin/redeem/codes/${revoking!.id}/revoke`, v),
    (r) => `已作废，收回 ${r.revoked_uses} 次兑换（${r.revoked_courses} 门课程授权）`,
    [tableKey('/admin/redeem/codes')],
  )

  return (
    <>
      <Typography.Title level={4}>
        <Link to="/admin/marketing/redeem">兑换码</Link> / 批次 {batchId}
      </Typography.Title>
      <ConsoleTable<RedeemCodeRow>
        path="/admin/redeem/codes"
        query={{ batch_id: batchId }}
        search={false}
        filters={[
          selectFilter('state', '状态', redeemCodeStateNames),
          { name: 'code', label: '按兑换码查找', type: 'text' },
        ]}
        empty="没有符合条件的兑换码。"
        columns={[
          { title: '序号', dataIndex: 'serial', sorter: true },
          stateColumn('状态', 'state', redeemCodeStateNames, stateColor),
          { title: '已用次数', dataIndex: 'uses' },
          { title: '使用会员', dataIndex: 'member', render: (m: string | null, r) => m ?? r.member_id ?? '—' },
          timeColumn('使用时间', 'used_at'),
          ...actionsColumn<RedeemCodeRow>((r) => r.state !== 'revoked' && <a onClick={() => editor.open(r)}>作废</a>),
        ]}
      />
      <FormDialog
        {...editor.dialog}
        title={`作废兑换码（序号 ${revoking?.serial ?? ''}）`}
        save={revoke}
        okText="确认作废"
        danger
        destroyOnHidden
      >
        <p>
          作废后这个兑换码不能再使用
          {revoking?.state === 'used' ? `，并收回 ${revoking.member ?? '会员'} 用它兑换的课程或 VIP 天数` : ''}
          。此操作不能撤销。
        </p>
        <ReasonField label="作废原因" name="reason" schema={RedeemCodeRevoke.shape.reason} />
      </FormDialog>
    </>
  )
}
