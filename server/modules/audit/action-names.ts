// What the staff action log calls each audited action (server/http/staff-audit.ts records method and route, as
// registered): the one table of names, read by the log's API and its CSV. A new audited route without a name here
// fails audit.test.ts ("names every audited route"), so the log never falls back to a bare URL.

/**
 * A toggle that names the action better than the route: the body's `field` with one of these values. `alone`: only
 * when the body holds nothing else, so a full edit that happens to carry the field stays an edit.
 */
interface Toggle {
  field: string
  names: Record<string, string>
  alone?: true
}

/** An action's name, or its name with a toggle that gives it a closer one (上架课程 for a course edit). */
type ActionName = string | { name: string; toggle: Toggle }

const onOff = (on: string, off: string): Toggle => ({ field: 'active', names: { true: on, false: off }, alone: true })

/** Every audited action by `METHOD /route`. */
const ActionNames = {
  // Catalogue
  'POST /api/admin/categories': '新增分类',
  'PATCH /api/admin/categories/:id': '修改分类',
  'POST /api/admin/teachers': '新增讲师',
  'PATCH /api/admin/teachers/:id': '修改讲师',
  'POST /api/admin/courses': '新建课程',
  'PATCH /api/admin/courses/:id': {
    name: '修改课程',
    toggle: {
      field: 'status',
      names: { published: '上架课程', hidden: '下架课程', draft: '课程转为草稿' },
      alone: true,
    },
  },
  'POST /api/admin/courses/:id/cover': '上传课程封面',
  'POST /api/admin/images': '上传图片',
  'POST /api/admin/chapters': '新增章节',
  'PATCH /api/admin/chapters/:id': '修改章节',
  'POST /api/admin/videos': '新增课时',
  'PATCH /api/admin/videos/:id': '修改课时',
  'POST /api/admin/videos/:id/upload': '上传视频',
  'POST /api/admin/videos/:id/transcode': '重新转码',
  'POST /api/admin/uploads': '上传视频（分片）',
  'PATCH /api/admin/uploads': '上传视频（分片）',
  'DELETE /api/admin/uploads': '取消视频上传',
  'POST /api/admin/uploads/:uploadId': '上传视频（分片）',
  'PATCH /api/admin/uploads/:uploadId': '上传视频（分片）',
  'DELETE /api/admin/uploads/:uploadId': '取消视频上传',
  'POST /api/admin/bundles': '新增套餐',
  'PATCH /api/admin/bundles/:id': { name: '修改套餐', toggle: onOff('上架套餐', '下架套餐') },

  // Storefront
  'POST /api/admin/home/sections': '新增首页栏目',
  'PATCH /api/admin/home/sections/:id': {
    name: '修改首页栏目',
    toggle: { field: 'visible', names: { true: '发布首页栏目', false: '撤下首页栏目' }, alone: true },
  },
  'DELETE /api/admin/home/sections/:id': '删除首页栏目',
  'POST /api/admin/home/sections/order': '调整首页栏目顺序',
  'POST /api/admin/home/items': '新增栏目内容',
  'PATCH /api/admin/home/items/:id': '修改栏目内容',
  'DELETE /api/admin/home/items/:id': '移除栏目内容',
  'POST /api/admin/home/sections/:id/items/order': '调整栏目内容顺序',
  'POST /api/admin/hot-words': '新增搜索热词',
  'PATCH /api/admin/hot-words/:id': '修改搜索热词',
  'DELETE /api/admin/hot-words/:id': '删除搜索热词',
  'POST /api/admin/hot-words/order': '调整搜索热词顺序',

  // Engagement
  'POST /api/admin/overlays': '新增系统弹窗',
  'PATCH /api/admin/overlays/:id': { name: '修改系统弹窗', toggle: onOff('启用系统弹窗', '停用系统弹窗') },
  'POST /api/admin/overlays/preview': '预览系统弹窗',
  'PUT /api/admin/settings/service': '保存客服设置',
  'PUT /api/admin/settings/overlay-caps': '保存弹窗频次上限',
  'POST /api/admin/popups': '新增播放器弹窗',
  'PATCH /api/admin/popups/:id': { name: '修改播放器弹窗', toggle: onOff('启用播放器弹窗', '停用播放器弹窗') },
  'DELETE /api/admin/popups/:id': '删除播放器弹窗',
  'POST /api/admin/comments/:id/moderate': {
    name: '处理评论',
    toggle: {
      field: 'action',
      names: {
        show: '恢复评论',
        hide: '隐藏评论',
        delete: '删除评论',
        pin: '置顶评论',
        unpin: '取消置顶',
        feature: '精选评论',
        unfeature: '取消精选',
      },
    },
  },
  'POST /api/comment/operate': {
    name: '处理评论',
    toggle: { field: 'action', names: { show: '恢复评论', hide: '隐藏评论', delete: '删除评论' } },
  },
  'POST /api/comment/operateType': {
    name: '设置评论类型',
    toggle: {
      field: 'type',
      names: { pin: '置顶评论', unpin: '取消置顶', feature: '精选评论', unfeature: '取消精选' },
    },
  },
  'POST /api/comment/operateTypeStatus': '设置评论类型和状态',

  // Sales
  'POST /api/admin/refunds/:refund_no/approve': '批准退款',
  'POST /api/admin/refunds/:refund_no/retry': '重新发起退款',
  'POST /api/admin/refunds/:refund_no/reject': '拒绝退款',
  'POST /api/admin/reconciliation/runs': '对账',
  'POST /api/admin/vip-plans': '新增 VIP 套餐',
  'PATCH /api/admin/vip-plans/:id': { name: '修改 VIP 套餐', toggle: onOff('恢复在售 VIP 套餐', '停售 VIP 套餐') },
  'POST /api/admin/coupon-templates': '新增优惠券模板',
  'PATCH /api/admin/coupon-templates/:id': {
    name: '修改优惠券模板',
    toggle: onOff('启用优惠券模板', '停用优惠券模板'),
  },
  'POST /api/admin/points/adjust': '调整积分',
  'POST /api/admin/exchange/skus': '新增商品映射',
  'PATCH /api/admin/exchange/skus/:id': '修改商品映射',
  'DELETE /api/admin/exchange/skus/:id': '删除商品映射',
  'POST /api/admin/exchange/records/:id/revoke': '撤销平台兑换',

  // Marketing
  'POST /api/admin/redeem/batches': '生成兑换码',
  'POST /api/admin/redeem/batches/:id/disable': '停用兑换码批次',
  'POST /api/admin/redeem/codes/:id/revoke': '作废兑换码',

  // Members
  'POST /api/admin/members/:id/courses': '授予课程',
  'POST /api/admin/members/:id/entitlements/:entitlement_id/revoke': '收回课程',
  'POST /api/admin/members/:id/sessions/revoke': '强制下线',
  'POST /api/admin/entitlements': '授予课程',
  'POST /api/admin/entitlements/:id/revoke': '收回课程',

  // System courses
  'PATCH /api/admin/leads/:id': '跟进报名线索',
  'POST /api/admin/enrolments/offer': '发送报名邀请',
  'POST /api/admin/tuition-plans': '新增学费方案',
  'POST /api/admin/contract-templates': '新增合同模板',
  'POST /api/admin/contract-templates/:id/versions': '新增合同版本',
  'PATCH /api/admin/contract-versions/:id': '修改合同草稿',
  'POST /api/admin/contract-templates/preview': '预览合同',
  'POST /api/admin/contract-versions/:id/publish': '发布合同版本',
  'GET /api/admin/contracts/:id/pdf': '查看已签合同',
  'HEAD /api/admin/contracts/:id/pdf': '查看已签合同',
  'POST /api/admin/tuition-payments/:id/extend': '延期缴费',
  'POST /api/admin/enrolments/:id/exit/approve': '批准退学',

  // Staff
  'POST /api/admin/staff': '授权员工',
  'PUT /api/admin/staff/:id/roles': {
    name: '修改员工角色',
    toggle: { field: 'roles', names: { '': '撤销员工全部角色' } },
  },
  'POST /api/admin/step-up/send_code': '发送短信验证码',
  'POST /api/admin/step-up': '短信验证',
} satisfies Record<string, ActionName>

/** The key the table is read by: the method and the route as registered. */
export const actionKey = (method: string, route: string) => `${method} ${route}`

/** Every action the table names (audit.test.ts holds it to the app's audited routes). */
export const namedActions = (): string[] => Object.keys(ActionNames)

/**
 * What the log calls one recorded action: the table's name (or its toggle's closer one for this body), or null for
 * a route the table does not name (a route since removed; the log then shows its method and route).
 */
export function actionName(method: string, route: string, body: unknown): string | null {
  const entry: ActionName | undefined = (ActionNames as Record<string, ActionName>)[actionKey(method, route)]
  if (entry === undefined) return null
  if (typeof entry === 'string') return entry
  const { field, names, alone } = entry.toggle
  const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  if (!(field in fields) || (alone && Object.keys(fields).length > 1)) return entry.name
  const value = fields[field]
  return names[Array.isArray(value) ? value.join(',') : String(value)] ?? entry.name
}
