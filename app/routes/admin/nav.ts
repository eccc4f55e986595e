import type { Permission } from '#shared/staff/roles.ts'

/** The console's screens by section, each with the permission that opens it (the menu shows only those). */
export const Sections: {
  key: string
  label: string
  items: { path: string; label: string; permission: Permission }[]
}[] = [
  {
    key: 'sales',
    label: '销售',
    items: [
      { path: '/admin/sales/orders', label: '订单', permission: 'orders.read' },
      { path: '/admin/sales/refunds', label: '退款', permission: 'refunds.read' },
      { path: '/admin/sales/exchange-records', label: '平台订单兑换', permission: 'exchange.read' },
      { path: '/admin/sales/exchange-skus', label: '商品映射', permission: 'exchange.read' },
    ],
  },
  {
    key: 'staff',
    label: '员工',
    items: [
      { path: '/admin/staff', label: '员工与角色', permission: 'staff.manage' },
      { path: '/admin/staff/log', label: '操作日志', permission: 'audit.read' },
    ],
  },
]
