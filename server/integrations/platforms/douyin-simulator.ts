import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { doudianSign, douyinPushSignature } from './douyin-sign.ts'
import type { DoudianShopOrder } from './douyin-shop.ts'
import type { PlatformFetch } from './http.ts'
import { simDigits as digits } from './shop-simulator.ts'
import {
  renderSimulatorPage,
  simulatorPageRoutes,
  simulatorPriceFen,
  simulatorProducts,
  typedPhone,
} from './simulator-page.ts'

// Douyin as this process plays it when no credentials are configured (demo, development, tests): the life-service
// voucher API (client_token, certificate prepare / verify / cancel), the Doudian order API (token.create,
// order.orderDetail, order.searchList, signature checked) and the signed `life_trade_certificate_notify` push, with a
// page where a person buys a voucher or a shop order and refunds it. Everything lives in memory.

export interface DouyinSimulatorSettings {
  clientKey: string
  clientSecret: string
  accountId: string
  appKey: string
  appSecret: string
  shopId: string
  /** Where pushes go (our POST /api/douyin/notify). */
  notifyUrl: () => string
  fetch: PlatformFetch
  now: () => Date
}

/** The products the simulator's page offers (the demo seed maps them to courses). */
const SIMULATOR_PRODUCTS = simulatorProducts('DY', '（团购券）')

interface Voucher {
  orderId: string
  certificateId: string
  code: string
  encryptedCode: string
  skuId: string
  title: string
  accountId: string
  state: 'unused' | 'used' | 'refunded'
  verifyId: string | null
  verifiedAt: number | null
}

const ok = <D>(data: D) => ({
  data: { error_code: 0, description: 'success', ...data },
  extra: { error_code: 0, description: '' },
})
const fail = (code: number, description: string) => ({
  data: { error_code: code, description },
  extra: { error_code: code, description },
})

export function createDouyinSimulator(s: DouyinSimulatorSettings) {
  const vouchers = new Map<string, Voucher>() // by certificate id
  const shopOrders = new Map<string, DoudianShopOrder & { updated: number }>()
  const tokens = new Set<string>()
  const phoneCiphers = new Map<string, string>()
  const cipherOf = (phone: string) => {
    const cipher = `#${crypto.randomBytes(12).toString('base64')}#${crypto.randomBytes(6).toString('base64')}#1##`
    phoneCiphers.set(cipher, phone)
    return cipher
  }
  const prepared = new Map<string, { orderId: string; codes: Set<string> }>()
  const inFlight = new Set<Promise<unknown>>()

  /** Sends a signed certificate push, as Douyin would after a refund. */
  function push(action: string, v: Voucher) {
    const body = JSON.stringify({
      event: 'life_trade_certificate_notify',
      client_key: s.clientKey,
      content: JSON.stringify({
        action,
        msg_time: Math.floor(s.now().getTime() / 1000),
        certificate: { order_id: v.orderId, certificate_id: v.certificateId, code: v.code, sku_id: v.skuId },
      }),
      log_id: digits(20),
    })
    const headers = {
      'content-type': 'application/json',
      'msg-id': `${v.certificateId}-${action}`,
      'x-douyin-signature': douyinPushSignature(s.clientSecret, body),
    }
    const p = s.fetch(s.notifyUrl(), { method: 'POST', headers, body }).catch(() => undefined)
    inFlight.add(p)
    void p.finally(() => inFlight.delete(p))
    return p
  }

  const api = {
    /** A group-buy order of `count` vouchers of one SKU; `foreign` sells it from another merchant's account. */
    makeVoucher(o: { skuId: string; title: string; count?: number; foreign?: boolean }) {
      const orderId = `10${digits(17)}`
      const made: Voucher[] = []
      for (let i = 0; i < (o.count ?? 1); i++) {
        const v: Voucher = {
          orderId,
          certificateId: `7${digits(18)}`,
          code: digits(12),
          encryptedCode: crypto.randomBytes(18).toString('base64url'),
          skuId: o.skuId,
          title: o.title,
          accountId: o.foreign ? `other-${digits(6)}` : s.accountId,
          state: 'unused',
          verifyId: null,
          verifiedAt: null,
        }
        vouchers.set(v.certificateId, v)
        made.push(v)
      }
      return { orderId, codes: made.map((v) => v.code), certificateIds: made.map((v) => v.certificateId) }
    },
    /** A paid Doudian order bought with `phone`. */
    makeShopOrder(o: { phone: string; lines: { skuId: string; productName: string }[]; foreign?: boolean }) {
      const orderId = `69${digits(17)}`
      shopOrders.set(orderId, {
        order_id: orderId,
        shop_id: o.foreign ? `9${digits(6)}` : s.shopId,
        order_status: 2,
        pay_time: Math.floor(s.now().getTime() / 1000),
        // Encrypted as real Doudian does; order.batchDecrypt gives it back.
        encrypt_post_tel: cipherOf(o.phone),
        sku_order_list: o.lines.map((l) => ({
          order_id: `69${digits(17)}`,
          sku_id: digits(10),
          out_sku_id: l.skuId,
          product_name: l.productName,
          pay_amount: simulatorPriceFen(l.skuId),
          order_status: 2,
          after_sale_info: { after_sale_status: 0, refund_status: 0 },
        })),
        updated: s.now().getTime(),
      })
      return { orderId }
    },
    /** Redeems a voucher at a shop counter (not through us). */
    useElsewhere(code: string) {
      for (const v of vouchers.values()) if (v.code === code) v.state = 'used'
    },
    /** Refunds every voucher of an order and pushes `refund_success` for each. */
    async refundVoucherOrder(orderId: string) {
      const list = [...vouchers.values()].filter((v) => v.orderId === orderId)
      for (const v of list) v.state = 'refunded'
      await Promise.all(list.map((v) => push('refund_success', v)))
    },
    /** Refunds a shop order (the sync job finds it by its update time). */
    refundShopOrder(orderId: string) {
      const o = shopOrders.get(orderId)
      if (!o) return
      o.order_status = 4
      for (const l of o.sku_order_list) l.after_sale_info = { after_sale_status: 12, refund_status: 3 }
      o.updated = s.now().getTime()
    },
    /** Sends the same push again (a replay). */
    replay: (certificateId: string, action = 'refund_success') => push(action, vouchers.get(certificateId)!),
    voucher: (certificateId: string) => vouchers.get(certificateId),
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight])
    },
  }

  function checkToken(token: unknown) {
    return typeof token === 'string' && tokens.has(token)
  }

  async function plugin(app: FastifyInstance) {
    // Douyin's wire format, not our API: kept out of the API docs like the other simulators.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true }
    })
    app.post<{ Body: { client_key?: string; client_secret?: string } }>('/oauth/client_token/', async (req) => {
      if (req.body?.client_key !== s.clientKey || req.body?.client_secret !== s.clientSecret)
        return { data: { error_code: 10003, description: 'client_key or client_secret invalid' }, message: 'error' }
      const token = `clt.${crypto.randomBytes(16).toString('hex')}`
      tokens.add(token)
      return { data: { access_token: token, expires_in: 7200, error_code: 0, description: '' }, message: 'success' }
    })

    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/goodlife/v1/fulfilment/certificate/prepare/',
      async (req) => {
        if (!checkToken(req.headers['access-token'])) return fail(2190008, 'access_token无效')
        const { code, encrypted_data: data } = req.query
        const hit = [...vouchers.values()].find((v) => (code ? v.code === code : v.encryptedCode === data))
        if (!hit) return fail(1207, '券码不存在')
        const usable = [...vouchers.values()].filter((v) => v.orderId === hit.orderId && v.state === 'unused')
        const verifyToken = crypto.randomUUID()
        prepared.set(verifyToken, { orderId: hit.orderId, codes: new Set(usable.map((v) => v.encryptedCode)) })
        return ok({
          verify_token: verifyToken,
          order_id: hit.orderId,
          certificates: usable.map((v) => ({
            encrypted_code: v.encryptedCode,
            certificate_id: v.certificateId,
            expire_time: Math.floor(s.now().getTime() / 1000) + 90 * 86400,
            sku: { sku_id: v.skuId, title: v.title, account_id: v.accountId, groupon_type: 1 },
            amount: { original_amount: simulatorPriceFen(v.skuId), pay_amount: simulatorPriceFen(v.skuId) },
          })),
        })
      },
    )

    app.post<{ Body: { verify_token?: string; encrypted_codes?: string[] } }>(
      '/goodlife/v1/fulfilment/certificate/verify/',
      async (req) => {
        if (!checkToken(req.headers['access-token'])) return fail(2190008, 'access_token无效')
        const p = prepared.get(req.body?.verify_token ?? '')
        if (!p) return fail(1210, 'verify_token无效')
        const results = (req.body?.encrypted_codes ?? []).map((enc) => {
          const v = [...vouchers.values()].find((x) => x.encryptedCode === enc)
          if (!v || !p.codes.has(enc)) return { result: 1207, msg: '券码不存在' }
          if (v.state !== 'unused') return { result: 1208, msg: '券码已使用', certificate_id: v.certificateId }
          v.state = 'used'
          v.verifyId = digits(19)
          v.verifiedAt = s.now().getTime()
          return { result: 0, msg: '', certificate_id: v.certificateId, verify_id: v.verifyId, order_id: v.orderId }
        })
        prepared.delete(req.body.verify_token!) // one prepare, one verify (the docs' rule)
        return ok({ verify_results: results })
      },
    )

    app.post<{ Body: { verify_id?: string; certificate_id?: string } }>(
      '/goodlife/v1/fulfilment/certificate/cancel/',
      async (req) => {
        if (!checkToken(req.headers['access-token'])) return fail(2190008, 'access_token无效')
        const v = vouchers.get(req.body?.certificate_id ?? '')
        if (!v || v.verifyId !== req.body?.verify_id || v.state !== 'used') return fail(1209, '核销记录不存在')
        if (s.now().getTime() - (v.verifiedAt ?? 0) > 3600_000) return fail(1212, '已超过可撤销时间')
        v.state = 'unused'
        v.verifyId = null
        return ok({})
      },
    )

    // Doudian: every call signed; token.create hands out the access token the others need.
    app.post<{ Querystring: Record<string, string>; Body: string }>('/:group/:action', async (req) => {
      const q = req.query
      const method = `${(req.params as { group: string }).group}.${(req.params as { action: string }).action}`
      const signed = {
        app_key: q.app_key ?? '',
        method,
        param_json: q.param_json ?? '',
        timestamp: q.timestamp ?? '',
        v: '2' as const,
      }
      if (q.app_key !== s.appKey || q.method !== method || q.sign !== doudianSign(s.appSecret, signed))
        return { code: 40003, msg: '签名校验失败', data: null }
      const params = JSON.parse(signed.param_json || '{}') as Record<string, unknown>
      if (method === 'token.create')
        return (
          tokens.add(`dd.${s.shopId}`),
          {
            code: 10000,
            msg: 'success',
            data: { access_token: `dd.${s.shopId}`, expires_in: 604800, shop_id: s.shopId },
          }
        )
      if (!checkToken(q.access_token)) return { code: 30002, msg: 'access_token无效', data: null }
      const view = (o: DoudianShopOrder & { updated: number }) => {
        const { updated: _, ...rest } = o
        return rest
      }
      if (method === 'order.orderDetail') {
        const o = shopOrders.get(String(params.shop_order_id))
        return o
          ? { code: 10000, msg: 'success', data: { shop_order_detail: view(o) } }
          : { code: 50002, msg: '订单不存在', data: null }
      }
      if (method === 'order.batchDecrypt') {
        const infos = (params.cipher_infos ?? []) as { auth_id: string; cipher_text: string }[]
        const decrypt_infos = infos.map((c) => {
          const phone = shopOrders.get(c.auth_id) ? phoneCiphers.get(c.cipher_text) : undefined
          return phone
            ? { auth_id: c.auth_id, cipher_text: c.cipher_text, decrypt_text: phone, err_no: 0, is_virtual_tel: false }
            : { auth_id: c.auth_id, cipher_text: c.cipher_text, decrypt_text: '', err_no: 300008, err_msg: '解密失败' }
        })
        return { code: 10000, msg: 'success', data: { decrypt_infos } }
      }
      if (method === 'order.searchList') {
        const from = Number(params.update_time_start) * 1000
        const to = Number(params.update_time_end) * 1000
        const list = [...shopOrders.values()].filter((o) => o.updated >= from && o.updated <= to).map(view)
        return { code: 10000, msg: 'success', data: { shop_order_list: list, total: list.length } }
      }
      return { code: 40001, msg: `未知方法 ${method}`, data: null }
    })

    // The page a person uses in the demo: buy a voucher or a shop order, see codes, refund.
    const voucherState: Record<string, string> = { unused: '未使用', used: '已核销', refunded: '已退款' }
    simulatorPageRoutes(app, {
      products: SIMULATOR_PRODUCTS,
      page: (notice) =>
        renderSimulatorPage({
          brand: '抖音',
          color: '#fe2c55',
          products: SIMULATOR_PRODUCTS,
          kinds: [
            { value: 'voucher', label: '团购券（抖音来客）' },
            { value: 'shop', label: '抖店订单' },
          ],
          sections: [
            {
              title: '我的团购券',
              items: [...vouchers.values()].map((v) => ({
                number: v.code.replace(/(\d{4})(?=\d)/g, '$1 '),
                title: v.title,
                detail: voucherState[v.state] ?? v.state,
                refundId: v.state === 'refunded' ? null : v.orderId,
              })),
            },
            {
              title: '我的抖店订单',
              items: [...shopOrders.values()].map((o) => ({
                number: o.order_id,
                title: o.sku_order_list.map((l) => l.product_name).join('、'),
                detail: `${phoneCiphers.get(o.encrypt_post_tel ?? '') ?? ''} · ${o.order_status === 4 ? '已退款' : '已支付'}`,
                refundId: o.order_status === 4 ? null : o.order_id,
              })),
            },
          ],
          notice,
        }),
      buy(product, form) {
        if (form.kind === 'shop') {
          const phone = typedPhone(form.phone)
          if (!phone) return '请填写 11 位手机号'
          const { orderId } = api.makeShopOrder({
            phone,
            lines: [{ skuId: product.skuId, productName: product.title }],
          })
          return `已下单：抖店订单号 ${orderId}`
        }
        const { codes } = api.makeVoucher({ skuId: product.skuId, title: product.title })
        return `已购买：券码 ${codes.join('、')}`
      },
      refund: async (id) => {
        if (shopOrders.has(id)) api.refundShopOrder(id)
        else await api.refundVoucherOrder(id)
      },
    })
  }

  return { plugin, ...api }
}

export type DouyinSimulator = ReturnType<typeof createDouyinSimulator>
