// One interface for every platform whose orders can be exchanged for courses (issue 14 §2). Each platform has a
// real adapter (base URL configurable, credentials from the environment) and a local simulator that speaks the same
// wire format and signatures; the adapters are what the tests exercise, against the simulators.

/** The platforms with an adapter (shared/exchange-platforms.ts `Platforms` lists the same ids). */
export type PlatformId = 'douyin_life' | 'douyin_shop' | 'kuaishou' | 'xiaohongshu' | 'wechat_shop'

/** What the buyer pasted, as the adapter needs it (server/modules/exchange/paste.ts reads it out of the text). */
export type OrderRef =
  /** An order number (a Douyin shop order id). */
  | { kind: 'order'; orderId: string }
  /** A voucher's plain code (券码) as the buyer sees it. */
  | { kind: 'voucher_code'; code: string }
  /** A voucher's QR link identifier (a Douyin share link's `object_id`). */
  | { kind: 'voucher_link'; encryptedData: string }

export interface PlatformLine {
  /** The line's id on the platform: a voucher's certificate_id, a shop order's SKU order id. */
  lineId: string
  skuId: string
  productName: string
  /** `ok`: paid and unused; `refunded`: refunded or being refunded; `used`: a voucher already redeemed elsewhere. */
  state: 'ok' | 'refunded' | 'used'
  /** What the buyer paid for this line, in fen, where the platform says (the staff's sales figures count it). */
  amountFen?: number | null
  /** What the platform needs to redeem this line (a Douyin voucher's encrypted_code). */
  redeemKey?: string
}

/** An order or voucher as a platform reports it, reduced to what the exchange rules read. */
export interface PlatformOrder {
  platform: PlatformId
  orderId: string
  /** The order was sold by our shop (our account / shop id). */
  ours: boolean
  /** `paid`: paid and not closed; `unpaid`; `cancelled`: closed or refunded as a whole. */
  state: 'paid' | 'unpaid' | 'cancelled'
  /** The buyer's phone, where the platform gives it in the clear; null otherwise. */
  buyerPhone: string | null
  paidAt: Date | null
  lines: PlatformLine[]
  /** What redeeming needs besides the lines (a Douyin certificate prepare's verify_token). */
  redeemToken?: string
}

/** What redeeming a voucher at the platform answered: the reference a later cancel needs, per line. */
type RedeemResult = { ok: true; refs: Map<string, string> } | { ok: false; reason: string }

/** What a push told us, once its signature checked out. */
export type PushEvent =
  /** The platform refunded or cancelled these lines (all of the order's lines when `lineIds` is null). */
  | { kind: 'revoked'; orderId: string; lineIds: string[] | null; reason: string }
  /** A new or changed paid order (the NotExchange lists). */
  | { kind: 'order'; order: PlatformOrder }
  /**
   * This order changed (paid, refunded, cancelled): what it is now is read back from the platform's order API, so a
   * push only says where to look (Kuaishou and WeChat Shop pushes carry the order id, not the order).
   */
  | { kind: 'changed'; orderId: string }
  /** Something we do not act on (a verify we made ourselves, a test message). */
  | { kind: 'ignored'; what: string }

export type PushCheck =
  | { ok: true; msgId: string; events: PushEvent[]; answer: { status: number; body: unknown } }
  | { ok: false; reason: 'bad_signature' | 'malformed' }

/** A platform's adapter. Methods a platform does not have (redeeming an order that needs none) are absent. */
export interface PlatformAdapter {
  platform: PlatformId
  /** The order or voucher, or null when the platform does not know it. Throws on transport failures. */
  lookup(ref: OrderRef): Promise<PlatformOrder | null>
  /** Marks these lines used at the platform (Douyin vouchers: certificate verify), retried as the platform says. */
  redeem?(order: PlatformOrder, lines: PlatformLine[]): Promise<RedeemResult>
  /** Undoes a redeem (Douyin: certificate cancel, within an hour of the verify). */
  undoRedeem?(refs: { lineId: string; redeemRef: string }[]): Promise<boolean>
  /** Orders paid or changed since `since`, for the periodic sync (where the platform has such a list). */
  listRecent?(since: Date, until: Date): Promise<PlatformOrder[]>
  /** Checks a push's signature (in its headers, or its query string for WeChat) and reads what it says. */
  checkPush?(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string,
    query?: Record<string, string | undefined>,
  ): PushCheck
}

export type PlatformAdapters = Partial<Record<PlatformId, PlatformAdapter>>
