import { PlusOutlined } from '@ant-design/icons'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, Input, InputNumber, Modal, Radio, Select, Space, Typography } from 'antd'
import { useState } from 'react'
import type { ExchangeSkuRow } from '#server/modules/exchange/exchange.schema.ts'
import { ExchangeSkuCreate, PlatformNames, Platforms, type Platform } from '#shared/api/exchange.ts'
import { api } from '../lib/client.ts'
import { useDangerConfirm } from '../lib/confirm.ts'
import { ConsoleTable } from '../lib/console-table.tsx'
import { when } from '../lib/format.ts'
import { pagedLoad } from '../lib/list.ts'
import { zodRule } from '../lib/zod-rule.ts'

const platformOptions = Platforms.map((p) => ({ value: p, label: PlatformNames[p] }))
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
  const [editing, setEditing] = useState<ExchangeSkuRow | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const grants = Form.useWatch('grants', form)
  const refresh = () => void client.invalidateQueries({ queryKey: ['table', 'exchange-skus'] })

  const save = useMutation({
    mutationFn: (v: FormValues) => {
      const body = {
        product_name: v.product_name,
        course_id: v.grants === 'course' ? v.course_id : null,
        vip_days: v.grants === 'vip' ? v.vip_days : null,
        note: v.note ?? '',
      }
      return editing === 'new'
        ? api.post<ExchangeSkuRow>('/admin/exchange/skus', { ...body, platform: v.platform, sku_id: v.sku_id })
        : api.patch<ExchangeSkuRow>(`/admin/exchange/skus/${(editing as ExchangeSkuRow).id}`, body)
    },
    onSuccess: (m) => {
      message.success(`已保存 ${m.sku_id}`)
      setEditing(null)
      refresh()
    },
    onError: (e) => message.error(e.message),
  })

  const remove = (m: ExchangeSkuRow) =>
    confirm({
      title: '删除映射',
      content: `删除后，${PlatformNames[m.platform]} SKU ${m.sku_id}（${m.product_name}）的订单将不能再兑换；已兑换的不受影响。`,
      okText: '确认删除',
      onOk: async () => {
        await api.delete(`/admin/exchange/skus/${m.id}`)
        message.success('已删除')
        refresh()
      },
    })

  const open = (m: ExchangeSkuRow | null) => {
    form.setFieldsValue({
      platform: m?.platform ?? 'douyin_life',
      sku_id: m?.sku_id ?? '',
      product_name: m?.product_name ?? '',
      grants: m?.vip_days ? 'vip' : 'course',
      course_id: m?.course_id ?? null,
      vip_days: m?.vip_days ?? null,
      note: m?.note ?? '',
    })
    setEditing(m ?? 'new')
  }

  return (
    <>
      <Typography.Title level={4}>商品映射</Typography.Title>
      <ConsoleTable<ExchangeSkuRow>
        id="exchange-skus"
        rowKey="id"
        searchPlaceholder="SKU 编号或商品名称"
        filters={[{ name: 'platform', label: '平台', type: 'select', options: platformOptions }]}
        load={pagedLoad<ExchangeSkuRow>('/admin/exchange/skus')}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
            新增映射
          </Button>
        }
        empty="还没有映射。平台订单的 SKU 映射到课程后，买家才能在 /data 页面兑换。"
        columns={[
          { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, width: 80 },
          { title: '平台', dataIndex: 'platform', render: (p: Platform) => PlatformNames[p] },
          { title: 'SKU 编号', dataIndex: 'sku_id' },
          { title: '商品名称', dataIndex: 'product_name' },
          {
            title: '兑换为',
            key: 'grants',
            render: (_, m) => (m.vip_days ? `VIP ${m.vip_days} 天` : `${m.course_title ?? ''}（课程 ${m.course_id}）`),
          },
          { title: '备注', dataIndex: 'note' },
          { title: '更新时间', dataIndex: 'updated_at', key: 'updated_at', sorter: true, render: when },
          {
            title: '操作',
            key: 'actions',
            render: (_, m) => (
              <Space>
                <a onClick={() => open(m)}>编辑</a>
                <a onClick={() => remove(m)}>删除</a>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={editing === 'new' ? '新增映射' : '编辑映射'}
        open={editing !== null}
        okText="保存"
        cancelText="取消"
        confirmLoading={save.isPending}
        onOk={async () => save.mutate(await form.validateFields())}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item label="平台" name="platform">
            <Select options={platformOptions} disabled={editing !== 'new'} />
          </Form.Item>
          <Form.Item
            label="SKU 编号"
            name="sku_id"
            rules={[zodRule(fields.sku_id)]}
            extra="抖店：商家编码（无则填 SKU ID）；团购券：SKU ID"
          >
            <Input disabled={editing !== 'new'} />
          </Form.Item>
          <Form.Item label="商品名称" name="product_name" rules={[zodRule(fields.product_name)]}>
            <Input />
          </Form.Item>
          <Form.Item label="兑换为" name="grants">
            <Radio.Group
              options={[
                { value: 'course', label: '课程' },
                { value: 'vip', label: 'VIP 天数' },
              ]}
            />
          </Form.Item>
          {grants === 'vip' ? (
            <Form.Item label="VIP 天数" name="vip_days" rules={[zodRule(fields.vip_days.unwrap().unwrap())]}>
              <InputNumber min={1} max={3650} style={{ width: '100%' }} />
            </Form.Item>
          ) : (
            <Form.Item label="课程 ID" name="course_id" rules={[zodRule(fields.course_id.unwrap().unwrap())]}>
              <InputNumber min={1} style={{ width: '100%' }} />
            </Form.Item>
          )}
          <Form.Item label="备注" name="note" rules={[zodRule(fields.note)]}>
            <Input placeholder="渠道、达人、活动等" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  )
}
