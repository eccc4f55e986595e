import crypto from 'node:crypto'
import { parseJson, postWithTimeout, SmsSendError, type SmsProvider } from './sms.ts'

export interface AliyunSmsOptions {
  /** https://dysmsapi.aliyuncs.com/ in production; the simulator's address in tests. */
  endpoint: string
  accessKeyId: string
  accessKeySecret: string
  signName: string
  templateCode: string
  /** Signing time: the provider checks it against its own clock, so this is the wall clock, not the app clock. */
  clock?: () => Date
  timeoutMs?: number
}

/** RFC 3986 percent-encoding as Aliyun's POP signature wants it (`!'()*` encoded, `~` kept, spaces as %20). */
function popPercentEncode(value: string) {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/** The POP (RPC style) signature, version 1.0: HMAC-SHA1 over the canonicalised, sorted parameters. */
export function popSignature(method: string, params: Record<string, string>, accessKeySecret: string) {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${popPercentEncode(k)}=${popPercentEncode(params[k]!)}`)
    .join('&')
  const stringToSign = `${method}&${popPercentEncode('/')}&${popPercentEncode(canonical)}`
  return crypto.createHmac('sha1', `${accessKeySecret}&`).update(stringToSign).digest('base64')
}

interface AliyunAnswer {
  Code?: string
  Message?: string
  RequestId?: string
  BizId?: string
}

/** Aliyun Dysmsapi SendSms (version 2017-05-25), signed POST form call. */
export function createAliyunSms(options: AliyunSmsOptions): SmsProvider {
  const clock = options.clock ?? (() => new Date())
  return {
    name: 'aliyun',
    async send(phone, code) {
      const params: Record<string, string> = {
        AccessKeyId: options.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: phone,
        RegionId: 'cn-hangzhou',
        SignName: options.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: crypto.randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: options.templateCode,
        TemplateParam: JSON.stringify({ code }),
        Timestamp: clock()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      }
      params.Signature = popSignature('POST', params, options.accessKeySecret)
      const body = Object.entries(params)
        .map(([k, v]) => `${popPercentEncode(k)}=${popPercentEncode(v)}`)
        .join('&')
      const res = await postWithTimeout(
        'aliyun',
        options.endpoint,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/json' },
          body,
        },
        options.timeoutMs ?? 5000,
      )
      const answer = parseJson('aliyun', res.text) as AliyunAnswer
      // Success is HTTP 200 with Code "OK"; business refusals (flow control, bad number) are HTTP 200 with their Code.
      if (res.status !== 200 || answer.Code !== 'OK')
        throw new SmsSendError('aliyun', answer.Code ?? `HTTP ${res.status}`)
    },
  }
}
