// The Chinese name of each order state, as the member's order pages and the console's sales screens show it.

export const orderStateNames = {
  pending: '待支付',
  paid: '已支付',
  refunding: '退款中',
  refunded: '已退款',
  partially_refunded: '部分退款',
  closed: '已关闭',
} as const
