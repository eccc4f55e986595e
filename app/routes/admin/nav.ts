import type { Permission } from '#shared/staff/roles.ts'

/** The console's screens by section, each with the permission that opens it (the menu shows only those). */
export const Sections: {
  key: string
  label: string
  /** `own`: a grant reaching only the member's own records opens it too (a teacher's courses). */
  items: { path: string; label: string; permission: Permission; own?: true }[]
}[] = [
  {
    key: 'catalogue',
    label: '课程',
    items: [
      { path: '/admin/catalogue/courses', label: '课程', permission: 'courses.read', own: true },
      { path: '/admin/catalogue/live', label: '直播排期', permission: 'catalogue.read' },
      { path: '/admin/catalogue/categories', label: '分类', permission: 'catalogue.read' },
      { path: '/admin/catalogue/teachers', label: '讲师', permission: 'catalogue.read' },
      { path: '/admin/catalogue/bundles', label: '套餐', permission: 'catalogue.read' },
      { path: '/admin/media', label: '媒体', permission: 'courses.read' },
    ],
  },
  {
    key: 'storefront',
    label: '首页运营',
    items: [
      { path: '/admin/storefront/home', label: '首页栏目', permission: 'catalogue.read' },
      { path: '/admin/storefront/hot-words', label: '搜索热词', permission: 'catalogue.read' },
    ],
  },
  {
    key: 'sales',
    label: '销售',
    items: [
      { path: '/admin/sales/orders', label: '订单', permission: 'orders.read' },
      { path: '/admin/sales/refunds', label: '退款', permission: 'refunds.read' },
      { path: '/admin/sales/coupons', label: '优惠券', permission: 'marketing.read' },
      { path: '/admin/sales/vip-plans', label: 'VIP 套餐', permission: 'marketing.read' },
      { path: '/admin/sales/points', label: '积分', permission: 'points.adjust' },
      { path: '/admin/sales/exchange-records', label: '平台订单兑换', permission: 'exchange.read' },
      { path: '/admin/sales/exchange-skus', label: '商品映射', permission: 'exchange.read' },
    ],
  },
  {
    key: 'engagement',
    label: '互动',
    items: [
      { path: '/admin/engagement/reports', label: '举报队列', permission: 'comments.moderate' },
      { path: '/admin/engagement/overlays', label: '系统弹窗', permission: 'marketing.edit' },
      { path: '/admin/engagement/popups', label: '播放器弹窗', permission: 'catalogue.read' },
      { path: '/admin/engagement/service', label: '客服设置', permission: 'marketing.edit' },
    ],
  },
  {
    key: 'tuition',
    label: '体系课',
    items: [
      { path: '/admin/tuition/leads', label: '报名线索', permission: 'tuition.read' },
      { path: '/admin/tuition/enrolments', label: '报名学员', permission: 'tuition.read' },
      { path: '/admin/tuition/plans', label: '学费方案', permission: 'tuition.read' },
      { path: '/admin/tuition/contracts', label: '合同模板', permission: 'tuition.read' },
    ],
  },
  {
    key: 'members',
    label: '用户',
    items: [{ path: '/admin/members', label: '会员', permission: 'members.read' }],
  },
  {
    key: 'marketing',
    label: '营销',
    items: [{ path: '/admin/marketing/redeem', label: '兑换码', permission: 'redeem.manage' }],
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
