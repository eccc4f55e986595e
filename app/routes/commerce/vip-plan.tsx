import VipBuy from './vip-buy.tsx'

export function meta() {
  return [{ title: '会员方案 - 自学' }]
}

/** /vip/d/{id}: one plan, preselected on the VIP checkout. */
export default function VipPlan() {
  return <VipBuy />
}
