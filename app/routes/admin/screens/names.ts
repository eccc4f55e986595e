import { orderStateNames as stateNames } from '#shared/order-states.ts'
import { RedeemBatchStateNames } from '#shared/api/redeem.ts'
import { RoleKindNames } from '#shared/staff/roles.ts'

/** Chinese names of the states and kinds the sales screens show. */
export const orderStateNames: Record<string, string> = stateNames

export const kindNames: Record<string, string> = {
  course: '课程',
  vip: '会员',
  amount: '指定金额',
  bundle: '套餐',
  favourites: '收藏合买',
}

export const payMethodNames: Record<string, string> = {
  wechat_jsapi: '微信支付（公众号）',
  wechat_h5: '微信支付（H5）',
  wechat_native: '微信支付（扫码）',
  alipay_wap: '支付宝',
  points: '积分',
  free: '免费',
}

export const refundStateNames: Record<string, string> = {
  requested: '待审批',
  rejected: '已拒绝',
  processing: '退款中',
  succeeded: '已退款',
  failed: '失败',
}

/** Why an order changed state (order_events.reason); an unknown one shows as it is stored. */
export const eventReasonNames: Record<string, string> = {
  created: '下单',
  paid: '支付成功',
  expired: '超时关闭',
  replaced: '被新订单取代',
  refund_requested: '会员申请退款',
  refund_approved: '退款已批准',
  refund_rejected: '退款被拒绝',
  refund_retried: '重新发起退款',
  refund_failed: '退款失败',
  refund_succeeded: '退款成功',
}

/** Why a member holds a course (entitlements.source). */
export const entitlementSourceNames: Record<string, string> = {
  purchase: '购买',
  vip: 'VIP',
  redeem: '兑换码',
  exchange: '平台兑换',
  unlock: '学费 / 班级',
  admin: '后台授予',
}

/** A member's standing (GET /api/admin/members role). */
export const memberRoleNames: Record<string, string> = RoleKindNames

export const commentStatusNames: Record<string, string> = { shown: '显示中', hidden: '已隐藏', deleted: '已删除' }

/** A comment's type (comments.type): pinned ones head their list, featured ones show in the course's picks. */
export const commentTypeNames: Record<string, string> = { normal: '普通', pinned: '置顶', featured: '精选' }

/** Redeem-code batches and codes (the 兑换码 screens). */
export const redeemBatchStateNames: Record<string, string> = RedeemBatchStateNames

export const redeemCodeStateNames: Record<string, string> = {
  unused: '未使用',
  used: '已使用',
  revoked: '已作废',
}
