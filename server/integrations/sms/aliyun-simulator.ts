import crypto from 'node:crypto'
import http from 'node:http'
import { listenLocally } from './simulator-server.ts'

/**
 * A local stand-in for dysmsapi.aliyuncs.com, used by tests only. It checks a SendSms call the way Aliyun does
 * (the POP signature recomputed from the received parameters, timestamp window, nonce reuse, required
 * parameters) and answers in Aliyun's JSON format, including its error codes.
 */
export interface AliyunSimulator {
  url: string
  /** Messages accepted, oldest first. */
  sent: { phone: string; signName: string; templateCode: string; templateParam: Record<string, string> }[]
  /** Make the next calls fail with this Aliyun business code (e.g. isv.BUSINESS_LIMIT_CONTROL). */
  failWith(code: string | null): void
  close(): Promise<void>
}

// Written separately from the adapter on purpose: a shared helper would hide a signing mistake from the tests.
function rfc3986(value: string) {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
}

const businessMessages: Record<string, string> = {
  'isv.BUSINESS_LIMIT_CONTROL': '触发分钟级流控Permits:1',
  'isv.MOBILE_NUMBER_ILLEGAL': '非法手机号',
  'isv.AMOUNT_NOT_ENOUGH': '账户余额不足',
}

export async function startAliyunSimulator(credentials: {
  accessKeyId: string
  accessKeySecret: string
}): Promise<AliyunSimulator> {
  const sent: AliyunSimulator['sent'] = []
  const nonces = new Set<string>()
  let failure: string | null = null

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const requestId = crypto.randomUUID().toUpperCase()
      const reply = (status: number, body: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' })
        res.end(JSON.stringify({ RequestId: requestId, ...body }))
      }
      const popError = (status: number, code: string, message: string) =>
        reply(status, {
          HostId: 'dysmsapi.aliyuncs.com',
          Code: code,
          Message: message,
          Recommend: `https://api.aliyun.com/troubleshoot?q=${code}`,
        })

      const url = new URL(req.url ?? '/', 'http://localhost')
      const form = new URLSearchParams(req.method === 'POST' ? Buffer.concat(chunks).toString('utf8') : url.search)
      const params = new Map<string, string>()
      for (const [k, v] of form) params.set(k, v)

      for (const name of [
        'AccessKeyId',
        'Action',
        'Signature',
        'SignatureMethod',
        'SignatureNonce',
        'SignatureVersion',
        'Timestamp',
        'Version',
      ]) {
        if (!params.get(name)) return popError(400, `Missing${name}`, `${name} is mandatory for this action.`)
      }
      if (params.get('AccessKeyId') !== credentials.accessKeyId)
        return popError(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.')
      if (params.get('SignatureMethod') !== 'HMAC-SHA1' || params.get('SignatureVersion') !== '1.0') {
        return popError(400, 'InvalidSignatureMethod', 'Specified signature method is not valid.')
      }
      const timestamp = Date.parse(params.get('Timestamp')!)
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.get('Timestamp')!) || Number.isNaN(timestamp)) {
        return popError(400, 'InvalidTimeStamp.Format', 'Specified time stamp or date value is not well formatted.')
      }
      if (Math.abs(Date.now() - timestamp) > 15 * 60_000)
        return popError(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.')

      const signature = params.get('Signature')!
      const canonical = [...params.entries()]
        .filter(([k]) => k !== 'Signature')
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
        .join('&')
      const stringToSign = `${req.method}&%2F&${rfc3986(canonical)}`
      const expected = crypto
        .createHmac('sha1', `${credentials.accessKeySecret}&`)
        .update(stringToSign)
        .digest('base64')
      if (expected !== signature) {
        return popError(
          400,
          'SignatureDoesNotMatch',
          `Specified signature does not match our calculation. The string to sign is: ${stringToSign}`,
        )
      }
      const nonce = params.get('SignatureNonce')!
      if (nonces.has(nonce)) return popError(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.')
      nonces.add(nonce)

      if (params.get('Action') !== 'SendSms' || params.get('Version') !== '2017-05-25') {
        return popError(404, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.')
      }
      for (const name of ['PhoneNumbers', 'SignName', 'TemplateCode']) {
        if (!params.get(name))
          return popError(
            400,
            'MissingParameter',
            `The input parameter "${name}" that is mandatory for processing this request is not supplied.`,
          )
      }
      if (failure) return reply(200, { Code: failure, Message: businessMessages[failure] ?? failure })
      const phone = params.get('PhoneNumbers')!
      if (!/^(\+?86)?1\d{10}$/.test(phone))
        return reply(200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: businessMessages['isv.MOBILE_NUMBER_ILLEGAL'] })
      let templateParam: Record<string, string>
      try {
        templateParam = JSON.parse(params.get('TemplateParam') ?? '{}') as Record<string, string>
      } catch {
        return reply(200, { Code: 'isv.INVALID_JSON_PARAM', Message: 'JSON参数不合法，只接受字符串值' })
      }
      sent.push({ phone, signName: params.get('SignName')!, templateCode: params.get('TemplateCode')!, templateParam })
      return reply(200, { Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` })
    })
  })
  return {
    ...(await listenLocally(server)),
    sent,
    failWith(code) {
      failure = code
    },
  }
}
