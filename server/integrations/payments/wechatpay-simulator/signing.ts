import crypto from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { nonceStr, parseAuthorization, rsaVerify, signatureMessage, signResponse } from '../wechatpay-crypto.ts'
import type { SimContext } from './context.ts'

// Signatures both ways: the merchant's requests checked as WeChat Pay checks them, answers signed as it signs them.

/** The key answers and notifications are signed with: the WeChat Pay public key or the current platform certificate. */
function signer(ctx: SimContext) {
  return ctx.options.signWith === 'public_key'
    ? { serial: ctx.options.publicKey.id, privateKey: ctx.options.publicKey.privateKey }
    : { serial: ctx.platform.current.serial, privateKey: ctx.platform.current.privateKey }
}

/** The Wechatpay-* headers for a body, signed now. */
export function signed(ctx: SimContext, body: string, timestamp = Math.floor(ctx.options.now().getTime() / 1000)) {
  const s = signer(ctx)
  return signResponse({ privateKey: s.privateKey, serial: s.serial, body, timestamp, nonce: nonceStr() })
}

/** Answers in WeChat Pay's format: JSON (or nothing) with signed headers and a request id. */
export function send(ctx: SimContext, reply: FastifyReply, status: number, payload?: unknown) {
  const body = payload === undefined ? '' : JSON.stringify(payload)
  reply.code(status).headers({ ...signed(ctx, body), 'request-id': crypto.randomUUID() })
  if (payload === undefined) return reply.send()
  return reply.type('application/json; charset=utf-8').send(body)
}

/** An error answer `{ code, message }`, signed like every answer. */
export function fail(ctx: SimContext, reply: FastifyReply, status: number, code: string, message: string) {
  return send(ctx, reply, status, { code, message })
}

/** The merchant's request signature, as WeChat Pay checks it; null when it is fine. */
export function checkRequest(ctx: SimContext, request: FastifyRequest, body: string): [number, string, string] | null {
  const { options, seenNonces } = ctx
  const auth = parseAuthorization(request.headers.authorization)
  if (!auth) return [401, 'SIGN_ERROR', 'Authorization 头缺失或格式错误']
  if (auth.mchid !== options.mchid) return [401, 'SIGN_ERROR', 'mchid 与商户号不一致']
  if (auth.serialNo.toUpperCase() !== options.merchantSerial.toUpperCase())
    return [401, 'SIGN_ERROR', '商户证书序列号有误']
  const ts = Number(auth.timestamp)
  if (!Number.isFinite(ts) || Math.abs(options.now().getTime() / 1000 - ts) > 300)
    return [401, 'SIGN_ERROR', '请求时间戳过期']
  const message = signatureMessage([request.method, request.url, auth.timestamp, auth.nonce, body])
  if (!rsaVerify(options.merchantPublicKey, message, auth.signature)) return [401, 'SIGN_ERROR', '签名错误']
  const nowMs = options.now().getTime()
  if (seenNonces.has(`${auth.nonce}|${auth.timestamp}`)) return [401, 'SIGN_ERROR', '重复的请求']
  seenNonces.set(`${auth.nonce}|${auth.timestamp}`, nowMs)
  if (seenNonces.size > 5000) for (const [k, t] of seenNonces) if (nowMs - t > 600_000) seenNonces.delete(k)
  return null
}
