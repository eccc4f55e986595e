// Why a member's points changed (point_entries.reason), named once: the learner's 积分明细 (/points) and the
// console's ledger (and its CSV) use the same words. No zod here, so the learner's points page does not carry the
// schema library.

export const PointReasons = [
  'order_earned',
  'order_earned_reversed',
  'order_spent',
  'order_spent_returned',
  'admin_adjust',
  /** Bind phone merged two members (issue 10): the absorbed member's balance moves, one entry on each side. */
  'member_merged',
] as const
export type PointReason = (typeof PointReasons)[number]

export const PointReasonNames: Record<PointReason, string> = {
  order_earned: '购买获得',
  order_earned_reversed: '退款扣回',
  order_spent: '下单抵扣',
  order_spent_returned: '抵扣退回',
  admin_adjust: '人工调整',
  member_merged: '账号合并',
}
