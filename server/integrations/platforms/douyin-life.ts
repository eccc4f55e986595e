import type { OrderRef, PlatformAdapter, PlatformLine, PlatformOrder, PushCheck, PushEvent } from './platform.ts'
import { verifyDouyinPush } from './douyin-sign.ts'
import { clientTokenCache, type PlatformFetch } from './http.ts'

// Douyin life-service (抖音来客) group-buy vouchers, from the open platform's "团购核销" pages
// (developer.open-douyin.com/docs/resource/zh-CN/local-life/develop/OpenAPI/…/life.capacity.fulfilment):
//   GET  /goodlife/v1/fulfilment/certificate/prepare/  ?code= | ?encrypted_data=, &poi_id=   → verify_token, certificates
//   POST /goodlife/v1/fulfilment/certificate/verify/   { verify_token, poi_id, encrypted_codes } → verify_results
//   POST /goodlife/v1/fulfilment/certificate/cancel/   { verify_id, certificate_id } (within an hour of the verify)
//   POST /oauth/client_token/                          client_credential → access-token header
// and the `life_trade_certificate_notify` push (actions verify / verify_cancel / refund_success), signed with
// `X-Douyin-Signature` = sha1(client_secret + body), deduplicated by its `Msg-Id` header.
//
// Not confirmed from the documentation we could read (marked where used):
// - that every item of prepare's `certificates` carries `certificate_id` (the verify result and the push do);
// - `sku.account_id` as the way to tell a voucher of our shop (we compare it with DOUYIN_LIFE_ACCOUNT_ID);
// - the exact body the webhook expects back (we answer 200 `{"err_no":0,"err_tips":"success"}`);
// - the cancel body beyond verify_id and certificate_id.

export interface DouyinLifeSettings {
  baseUrl: string
  clientKey: string
  clientSecret: string
  /** The merchant root account the vouchers must belong to (`sku.account_id`). */
  accountId: string
  /** The Douyin store (门店) the vouchers are verified at. */
  poiId: string
  /** Pauses between verify attempts when Douyin answers a retryable error (its docs: every 5 s). */
  retryDelaysMs: number[]
}

interface DouyinEnvelope<D> {
  data?: D & { error_code?: number; description?: string }
  extra?: { error_code?: number; description?: string; sub_error_code?: number }
}

interface PrepareData {
  verify_token?: string
  order_id?: string
  certificates?: {
    encrypted_code: string
    certificate_id?: string
    expire_time?: number
    sku?: { sku_id?: string; title?: string; account_id?: string }
    /** Fen. Not confirmed: that prepare's certificates carry `amount.pay_amount` (the verify answer documents it). */
    amount?: { original_amount?: number; pay_amount?: number }
  }[]
}

interface VerifyData {
  verify_results?: { result: number; msg?: string; certificate_id?: string; verify_id?: string; order_id?: string }[]
}

const failed = (e: DouyinEnvelope<unknown>) => (e.extra?.error_code ?? 0) !== 0 || (e.data?.error_code ?? 0) !== 0

/** A retried verify whose first attempt went through: Douyin answers 1208 or 2 (its docs, 验券 note 5). */
const ALREADY_VERIFIED = new Set([1208, 2])

export function createDouyinLifeAdapter(s: DouyinLifeSettings, fetch: PlatformFetch): PlatformAdapter {
  const token = clientTokenCache(s.baseUrl, s.clientKey, s.clientSecret, fetch)

  async function call<D>(method: 'GET' | 'POST', path: string, query: Record<string, string>, body?: unknown) {
    const url = new URL(`${s.baseUrl}${path}`)
    for (const [k, v] of Object.entries(query)) if (v) url.searchParams.set(k, v)
    const res = await fetch(url.toString(), {
      method,
      headers: { 'content-type': 'application/json', 'access-token': await token() },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (!res.ok) throw new Error(`Douyin ${path} answered HTTP ${res.status}`)
    return (await res.json()) as DouyinEnvelope<D>
  }

  return {
    platform: 'douyin_life',

    async lookup(ref: OrderRef): Promise<PlatformOrder | null> {
      if (ref.kind === 'order') return null
      const query: Record<string, string> =
        ref.kind === 'voucher_code'
          ? { code: ref.code, poi_id: s.poiId }
          : { encrypted_data: ref.encryptedData, poi_id: s.poiId }
      const answer = await call<PrepareData>('GET', '/goodlife/v1/fulfilment/certificate/prepare/', query)
      // An unknown or malformed code is an error answer; a known order with nothing usable is a success with no
      // certificates ("如未返回券码信息,则说明该订单此刻无可用券码"): used, refunded or expired.
      if (failed(answer) || !answer.data?.order_id) return null
      const certificates = answer.data.certificates ?? []
      const lines: PlatformLine[] = certificates.map((c) => ({
        // Not confirmed: certificate_id on prepare's items; the encrypted code stands in where it is missing.
        lineId: c.certificate_id ?? c.encrypted_code,
        skuId: c.sku?.sku_id ?? '',
        productName: c.sku?.title ?? '',
        state: 'ok',
        amountFen: c.amount?.pay_amount ?? null,
        redeemKey: c.encrypted_code,
      }))
      return {
        platform: 'douyin_life',
        orderId: answer.data.order_id,
        ours: certificates.every((c) => !s.accountId || c.sku?.account_id === s.accountId),
        state: 'paid',
        buyerPhone: null,
        paidAt: null,
        lines,
        ...(answer.data.verify_token ? { redeemToken: answer.data.verify_token } : {}),
      }
    },

    async redeem(order, lines) {
      const body = { verify_token: order.redeemToken, poi_id: s.poiId, encrypted_codes: lines.map((l) => l.redeemKey) }
      for (let attempt = 0; ; attempt++) {
        // A transport failure leaves the outcome unknown: retried like an error answer.
        const answer = await call<VerifyData>('POST', '/goodlife/v1/fulfilment/certificate/verify/', {}, body).catch(
          () => null,
        )
        if (answer && !failed(answer)) {
          const results = answer.data?.verify_results ?? []
          const accepted = (r: (typeof results)[number]) =>
            r.result === 0 || (attempt > 0 && ALREADY_VERIFIED.has(r.result))
          const bad = results.find((r) => !accepted(r))
          if (bad || results.length !== lines.length) return { ok: false, reason: bad?.msg || '抖音验券未成功' }
          return {
            ok: true,
            refs: new Map(results.map((r, i) => [r.certificate_id ?? lines[i]!.lineId, r.verify_id ?? ''])),
          }
        }
        if (attempt >= s.retryDelaysMs.length)
          return { ok: false, reason: answer?.data?.description || answer?.extra?.description || '抖音验券暂时失败' }
        await new Promise((r) => setTimeout(r, s.retryDelaysMs[attempt]))
      }
    },

    async undoRedeem(refs) {
      for (const r of refs) {
        const answer = await call(
          'POST',
          '/goodlife/v1/fulfilment/certificate/cancel/',
          {},
          {
            verify_id: r.redeemRef,
            certificate_id: r.lineId,
          },
        )
        if (failed(answer)) return false
      }
      return true
    },

    checkPush(headers, rawBody): PushCheck {
      const signature = headers['x-douyin-signature']
      if (!verifyDouyinPush(s.clientSecret, rawBody, typeof signature === 'string' ? signature : undefined))
        return { ok: false, reason: 'bad_signature' }
      return readLifePush(rawBody, headers['msg-id'])
    },
  }
}

/** What a signed life-service push says. */
function readLifePush(rawBody: string, msgIdHeader: string | string[] | undefined): PushCheck {
  let body: { event?: string; content?: unknown; log_id?: string }
  try {
    body = JSON.parse(rawBody) as typeof body
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  const ok = { status: 200, body: { err_no: 0, err_tips: 'success' } }
  const msgId = typeof msgIdHeader === 'string' && msgIdHeader ? msgIdHeader : (body.log_id ?? '')
  if (body.event === 'verify_webhook') {
    const challenge = (body.content as { challenge?: unknown } | undefined)?.challenge
    return { ok: true, msgId: '', events: [], answer: { status: 200, body: { challenge } } }
  }
  if (body.event !== 'life_trade_certificate_notify')
    return { ok: true, msgId, events: [{ kind: 'ignored', what: String(body.event) }], answer: ok }
  let content: { action?: string; certificate?: { order_id?: string; certificate_id?: string } }
  try {
    content =
      typeof body.content === 'string' ? (JSON.parse(body.content) as typeof content) : (body.content as typeof content)
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  const orderId = content?.certificate?.order_id
  const certificateId = content?.certificate?.certificate_id
  if (!orderId || !certificateId) return { ok: false, reason: 'malformed' }
  const events: PushEvent[] =
    content.action === 'refund_success'
      ? [{ kind: 'revoked', orderId, lineIds: [certificateId], reason: '抖音团购券已退款' }]
      : [{ kind: 'ignored', what: `certificate ${content.action}` }]
  return { ok: true, msgId, events, answer: ok }
}
