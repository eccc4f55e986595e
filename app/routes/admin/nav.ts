import type { Permission } from '#shared/staff/roles.ts'

interface Item {
  path: string
  label: string
  permission: Permission
  /** `own`: a grant reaching only the member's own records opens it too (a teacher's courses). */
  own?: true
}

/** The screens one permission opens: `/admin/<path>` → its menu label, in menu order. */
function opens(permission: Permission, screens: Record<string, string>, own?: true): Item[] {
  return Object.entries(screens).map(([path, label]) => ({
    path: `/admin/${path}`,
    label,
    permission,
    ...(own && { own }),
  }))
}

/** The console's screens by section, each with the permission that opens it (the menu shows only those). */
export const Sections: { key: string; label: string; items: Item[] }[] = [
  {
    key: 'catalogue',
    label: '课程',
    items: [
      ...opens('courses.read', { 'catalogue/courses': '课程' }, true),
      ...opens('catalogue.read', {
        'catalogue/live': '直播排期',
        'catalogue/categories': '分类',
        'catalogue/teachers': '讲师',
        'catalogue/bundles': '套餐',
      }),
      ...opens('courses.read', { media: '媒体' }),
    ],
  },
  {
    key: 'storefront',
    label: '首页运营',
    items: opens('catalogue.read', { 'storefront/home': '首页栏目', 'storefront/hot-words': '搜索热词' }),
  },
  {
    key: 'sales',
    label: '销售',
    items: [
      ...opens('orders.read', { 'sales/orders': '订单' }),
      ...opens('refunds.read', { 'sales/refunds': '退款' }),
      ...opens('marketing.read', { 'sales/coupons': '优惠券', 'sales/vip-plans': 'VIP 套餐' }),
      ...opens('points.adjust', { 'sales/points': '积分' }),
      ...opens('exchange.read', { 'sales/exchange-records': '平台订单兑换', 'sales/exchange-skus': '商品映射' }),
    ],
  },
  {
    key: 'engagement',
    label: '互动',
    items: [
      ...opens('comments.moderate', { 'engagement/comments': '评论管理', 'engagement/reports': '举报队列' }),
      ...opens('marketing.edit', { 'engagement/overlays': '系统弹窗' }),
      ...opens('catalogue.read', { 'engagement/popups': '播放器弹窗' }),
      ...opens('marketing.edit', { 'engagement/service': '客服设置' }),
    ],
  },
  {
    key: 'tuition',
    label: '体系课',
    items: opens('tuition.read', {
      'tuition/leads': '报名线索',
      'tuition/enrolments': '报名学员',
      'tuition/plans': '学费方案',
      'tuition/contracts': '合同模板',
    }),
  },
  { key: 'members', label: '用户', items: opens('members.read', { members: '会员' }) },
  { key: 'marketing', label: '营销', items: opens('redeem.manage', { 'marketing/redeem': '兑换码' }) },
  {
    key: 'staff',
    label: '员工',
    items: [...opens('staff.manage', { staff: '员工与角色' }), ...opens('audit.read', { 'staff/log': '操作日志' })],
  },
]
