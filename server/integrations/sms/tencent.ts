import crypto from 'node:crypto'
import { parseJson, postWithTimeout, SmsSendError, type SmsProvider } from './sms.ts'

export interface TencentSmsOptions {
  /** https://sms.tencentcloudapi.com/ in production; the simulator's address in tests. */
  endpoint: string
  secretId: string
  secretKey: string
  /** SmsSdkAppId of the SMS application. */
  appId: string
  region: string
  signName: string
  templateId: string
  /** Signing time: checked against Tencent's clock, so the wall clock, not the app clock. */
  clock?: () => Date
  timeoutMs?: number
}

const sha256Hex = (data: string) => crypto.createHash('sha256').update(data).digest('hex')
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data).digest()

/** The TC3-HMAC-SHA256 Authorization header of a Tencent Cloud API 3.0 POST with a JSON body. */
function tc3Authorization(input: {
  secretId: string
  secretKey: string
  service: string
  host: string
  contentType: string
  payload: string
  timestamp: number
}) {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10)
  const signedHeaders = 'content-type;host'
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${input.contentType}\nhost:${input.host}\n`,
    signedHeaders,
    sha256Hex(input.payload),
  ].join('\n')
  const scope = `${date}/${input.service}/tc3_request`
  const stringToSign = ['TC3-HMAC-SHA256', String(input.timestamp), scope, sha256Hex(canonicalRequest)].join('\n')
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), 'tc3_request')
  const signature = crypto.createHmac('sha256', signingKey).update(stringToSign).digest('hex')
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}

interface TencentAnswer {
  Response?: {
    Error?: { Code: string; Message: string }
    SendStatusSet?: { Code: string; Message: string; PhoneNumber: string }[]
    RequestId?: string
  }
}

/** Tencent Cloud SMS SendSms (API version 2021-01-11), TC3-HMAC-SHA256 signed JSON call. */
export function createTencentSms(options: TencentSmsOptions): SmsProvider {
  const clock = options.clock ?? (() => new Date())
  const contentType = 'application/json; charset=utf-8'
  return {
    name: 'tencent',
    async send(phone, code) {
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${phone}`],
        SmsSdkAppId: options.appId,
        SignName: options.signName,
        TemplateId: options.templateId,
        TemplateParamSet: [code],
      })
      const host = new URL(options.endpoint).host
      const timestamp = Math.floor(clock().getTime() / 1000)
      const authorization = tc3Authorization({
        secretId: options.secretId,
        secretKey: options.secretKey,
        service: 'sms',
        host,
        contentType,
        payload,
        timestamp,
      })
      const res = await postWithTimeout(
        'tencent',
        options.endpoint,
        {
          method: 'POST',
          headers: {
            authorization,
            // fetch sends Host from the URL itself; it is the value signed above.
            'content-type': contentType,
            'x-tc-action': 'SendSms',
            'x-tc-timestamp': String(timestamp),
            'x-tc-version': '2021-01-11',
            'x-tc-region': options.region,
          },
          body: payload,
        },
        options.timeoutMs ?? 5000,
      )
      const answer = (parseJson('tencent', res.text) as TencentAnswer).Response
      // API errors (signature, auth, parameters) come as Response.Error; a refusal for one number (its frequency
      // limits, a bad number) as a status in SendStatusSet, both with HTTP 200.
      if (res.status !== 200 || !answer) throw new SmsSendError('tencent', `HTTP ${res.status}`)
      if (answer.Error) throw new SmsSendError('tencent', answer.Error.Code)
      const status = answer.SendStatusSet?.[0]
      if (!status || status.Code !== 'Ok') throw new SmsSendError('tencent', status?.Code ?? 'NoSendStatus')
    },
  }
}
