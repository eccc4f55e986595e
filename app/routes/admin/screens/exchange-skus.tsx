import { useQueryClient } from '@tanstack/react-query'
import { App, Form, Input, InputNumber, Select } from 'antd'
import type { ExchangeSkuRow } from '#server/modules/exchange/exchange.schema.ts'
import { ExchangeSkuCreate } from '#shared/api/exchange.ts'
import { PlatformNames, type Platform } from '#shared/exchange-platforms.ts'
import { api } from '../lib/client.ts'
import { RadioField } from '../lib/fields.tsx'
import { actionsColumn, idColumn, timeColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, options, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { AddButton } from '../lib/list-header.tsx'
import { zodRule } from '../lib/zod-rule.ts'

const platformOptions = options(PlatformNames)
const fields = ExchangeSkuCreate.shape

interface FormValues {
  platform: Platform
  sku_id: string
  product_name: string
  grants: 'course' | 'vip'
  course_id: number | null
  vip_days: number | null
  note: string
}

/** Which platform SKU grants which course (or VIP days) when its order is exchanged on /data/*. */
export default function ExchangeSkus() {
  const { message } = App.useApp()
  const confirm = useDangerConfirm()
  const client = useQueryClient()
  const editor = useEditor<ExchangeSkuRow, FormValues>('exchange_sku', (m) => ({
    platform: m?.platform ?? 'douyin_life',
    sku_id: m?.sku_id ?? '',
    product_name: m?.product_name ?? '',
    grants: m?.vip_days ? 'vip' : 'course',
    course_id: m?.course_id ?? null,
    vip_days: m?.vip_days ?? null,
    note: m?.note ?? '',
  }))
  const { editing } = editor
  const grants = Form.useWatch('grants', editor.form)
  const refresh = () => void client.invalidateQueries({ queryKey: tableKey('/admin/exchange/skus') })

  const save = useWrite(
    (v: FormValues) => {
      const body = {
        product_name: v.product_name,
        course_id: v.grants === 'course' ? v.course_id : null,
        vip_days: v.grants === 'vip' ? v.vip_days : null,
        note: v.note ?? '',
      }
      return editing
        ? api.patch<ExchangeSkuRow>(`/admin/exchange/skus/${editing.id}`, body)
        : api.post<ExchangeSkuRow>('/admin/exchange/skus', { ...body, platform: v.platform, sku_id: v.sku_id })
    },
    (m) => `已保存 ${m.sku_id}`,
    [tableKey('/admin/exchange/skus')],
  )

  const remove = (m: ExchangeSkuRow) =>
    confirm({
      title: '删除映射',
      content: `删除后，${PlatformNames[m.platform]} SKU ${m.sku_id}（${m.product_name}）的订单将不能再兑换；已兑换的不受影响。`,
      okText: '确认删除',
      run: async () => {
        await api.delete(`/admin/exchange/skus/${m.id}`)
        message.success('已删除')
        refresh()
      },
    })

  return (
    <>
      <ConsoleTable<ExchangeSkuRow>
        title="商品映射"
        path="/admin/exchange/skus"
        search="SKU 编号或商品名称"
        filters={[selectFilter('platform', '平台', platformOptions)]}
        toolbar={<AddButton label="新增映射" onClick={() => editor.open(null)} />}
        empty="还没有映射。平台订单的 SKU 映射到课程后，买家才能在 /data 页面兑换。"
        columns={[
          idColumn('ID', 80),
          { title: '平台', dataIndex: 'platform', render: (p: Platform) => PlatformNames[p] },
          { title: 'SKU 编号', dataIndex: 'sku_id' },
          { title: '商品名称', dataIndex: 'product_name' },
          {
            title: '兑换为',
            key: 'grants',
            render: (_, m) => (m.vip_days ? `VIP ${m.vip_days} 天` : `${m.course_title ?? ''}（课程 ${m.course_id}）`),
          },
          { title: '备注', dataIndex: 'note' },
          timeColumn('更新时间', 'updated_at', true),
          ...actionsColumn<ExchangeSkuRow>((m) => (
            <>
              <a onClick={() => editor.open(m)}>编辑</a>
              <a onClick={() => remove(m)}>删除</a>
            </>
          )),
        ]}
      />
      <FormDialog {...editor.dialog} title={editing ? '编辑映射' : '新增映射'} save={save} destroyOnHidden>
        <Form.Item label="平台" name="platform">
          <Select options={platformOptions} disabled={editing !== null} />
        </Form.Item>
        <Form.Item
          label="SKU 编号"
          name="sku_id"
          rules={[{ required: true, message: '请填写 SKU 编号' }, zodRule(fields.sku_id)]}
          extra="抖店：商家编码（无则填 SKU ID）；团购券：SKU ID"
        >
          <Input disabled={editing !== null} />
        </Form.Item>
        <Form.Item
          label="商品名称"
          name="product_name"
          rules={[{ required: true, message: '请填写商品名称' }, zodRule(fields.product_name)]}
        >
          <Input />
        </Form.Item>
        <RadioField label="兑换为" name="grants" names={{ course: '课程', vip: 'VIP 天数' }} />
        {grants === 'vip' ? (
          <Form.Item
            label="VIP 天数"
            name="vip_days"
            rules={[{ required: true, message: '请填写 VIP 天数' }, zodRule(fields.vip_days.unwrap().unwrap())]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : (
          <Form.Item
            label="课程 ID"
            name="course_id"
            rules={[{ required: true, message: '请填写课程 ID' }, zodRule(fields.course_id.unwrap().unwrap())]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item label="备注" name="note" rules={[zodRule(fields.note)]}>
          <Input placeholder="渠道、达人、活动等" />
        </Form.Item>
      </FormDialog>
    </>
  )
}
