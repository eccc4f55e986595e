// The kinds of the member's exchange record (/order4), named as the screen shows them. No zod here: the learner
// page reads them, and the schemas in shared/api/exchange-records.ts would bring zod into its first load.

export const ExchangeRecordKinds = ['points', 'redeem', 'exchange'] as const
export type ExchangeRecordKind = (typeof ExchangeRecordKinds)[number]

export const ExchangeRecordKindNames: Record<ExchangeRecordKind, string> = {
  points: '积分兑换',
  redeem: '兑换码',
  exchange: '平台订单',
}
