import crypto from 'node:crypto'
import http from 'node:http'
import { listenLocally } from './simulator-server.ts'

/**
 * A local stand-in for sms.tencentcloudapi.com, used by tests only. It checks a SendSms 2021-01-11 call the way
 * Tencent Cloud does (TC3-HMAC-SHA256 recomputed from the received headers and body, credential scope, a
 * timestamp within 5 minutes) and answers in API 3.0's format: `Response.Error` for API errors and a
 * `SendStatusSet` entry per number.
 */
export interface TencentSimulator {
  url: string
  sent: { phone: string; appId: string; signName: string; templateId: string; params: string[] }[]
  /** Make the next sends fail for the number with this status code (e.g. LimitExceeded.PhoneNumberThirtySecondLimit). */
  failWith(code: string | null): void
  close(): Promise<void>
}

const statusMessages: Record<string, string> = {
  'LimitExceeded.PhoneNumberThirtySecondLimit':
    'the number of sms messages sent from a single mobile number within 30 seconds exceeds the upper limit',
  'LimitExceeded.PhoneNumberDailyLimit':
    'the number of sms messages sent from a single mobile number every day exceeds the upper limit',
  'FailedOperation.InsufficientBalanceInSmsPackage': 'insufficient balance in SMS package',
}

// Kept apart from the adapter's signing code on purpose: sharing it would hide a signing mistake from the tests.
function hmacSha256(key: Buffer | string, message: string) {
  return crypto.createHmac('sha256', key).update(message, 'utf8').digest()
}

export async function startTencentSimulator(credentials: {
  secretId: string
  secretKey: string
  appId: string
}): Promise<TencentSimulator> {
  const sent: TencentSimulator['sent'] = []
  let failure: string | null = null

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const requestId = crypto.randomUUID()
      const reply = (response: Record<string, unknown>) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ Response: { ...response, RequestId: requestId } }))
      }
      const error = (code: string, message: string) => reply({ Error: { Code: code, Message: message } })
      const payload = Buffer.concat(chunks).toString('utf8')
      const header = (name: string) => {
        const v = req.headers[name]
        return Array.isArray(v) ? v[0] : v
      }

      const authorization = header('authorization') ?? ''
      const match =
        /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/([\w-]+)\/tc3_request, SignedHeaders=([\w;-]+), Signature=([0-9a-f]{64})$/.exec(
          authorization,
        )
      if (!match) return error('AuthFailure.InvalidAuthorization', 'Authorization header is invalid.')
      const [, secretId, date, service, signedHeaders, signature] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
      ]
      if (secretId !== credentials.secretId)
        return error(
          'AuthFailure.SecretIdNotFound',
          'The SecretId is not found, please ensure that your SecretId is correct.',
        )
      const timestamp = Number(header('x-tc-timestamp'))
      if (!Number.isInteger(timestamp))
        return error('MissingParameter', 'The request is missing a required parameter `X-TC-Timestamp`.')
      if (Math.abs(Date.now() / 1000 - timestamp) > 300) {
        return error(
          'AuthFailure.SignatureExpire',
          `Signature expired. Timestamp of the request is ${timestamp}, server time is ${Math.floor(Date.now() / 1000)}.`,
        )
      }
      if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date || service !== 'sms') {
        return error(
          'AuthFailure.SignatureFailure',
          'The provided credentials could not be validated. Please check your signature is correct.',
        )
      }
      const headerNames = signedHeaders.split(';')
      if (!headerNames.includes('content-type') || !headerNames.includes('host')) {
        return error(
          'AuthFailure.SignatureFailure',
          'The provided credentials could not be validated. Please check your signature is correct.',
        )
      }
      const canonicalHeaders = headerNames.map((h) => `${h}:${(header(h) ?? '').trim().toLowerCase()}\n`).join('')
      const hashedPayload = crypto.createHash('sha256').update(payload, 'utf8').digest('hex')
      const canonicalRequest = `${req.method}\n${(req.url ?? '/').split('?')[0]}\n${(req.url ?? '').split('?')[1] ?? ''}\n${canonicalHeaders}\n${signedHeaders}\n${hashedPayload}`
      const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${crypto.createHash('sha256').update(canonicalRequest).digest('hex')}`
      const key = hmacSha256(hmacSha256(hmacSha256('TC3' + credentials.secretKey, date), service), 'tc3_request')
      const expected = crypto.createHmac('sha256', key).update(stringToSign).digest('hex')
      if (expected !== signature)
        return error(
          'AuthFailure.SignatureFailure',
          'The provided credentials could not be validated. Please check your signature is correct.',
        )

      if (header('x-tc-action') !== 'SendSms')
        return error('InvalidAction', `The action \`${header('x-tc-action')}\` is not supported.`)
      if (header('x-tc-version') !== '2021-01-11')
        return error(
          'NoSuchVersion',
          'The requested version does not exist or the action does not exist in this version.',
        )
      if (!header('x-tc-region'))
        return error('MissingParameter', 'The request is missing a required parameter `Region`.')

      let body: {
        PhoneNumberSet?: string[]
        SmsSdkAppId?: string
        SignName?: string
        TemplateId?: string
        TemplateParamSet?: string[]
      }
      try {
        body = JSON.parse(payload) as typeof body
      } catch {
        return error('InvalidParameter', 'The request body is not valid JSON.')
      }
      if (!body.PhoneNumberSet?.length || !body.SmsSdkAppId || !body.TemplateId) {
        return error(
          'MissingParameter',
          'The request is missing a required parameter `PhoneNumberSet`, `SmsSdkAppId` or `TemplateId`.',
        )
      }
      if (body.SmsSdkAppId !== credentials.appId)
        return error('FailedOperation.SmsSdkAppIdVerifyFail', 'SdkAppId verification failed.')
      const statuses = body.PhoneNumberSet.map((number) => {
        const base = { SerialNo: crypto.randomUUID(), PhoneNumber: number, Fee: 1, SessionContext: '', IsoCode: 'CN' }
        if (failure) return { ...base, Fee: 0, Code: failure, Message: statusMessages[failure] ?? failure }
        if (!/^\+861[3-9]\d{9}$/.test(number))
          return {
            ...base,
            Fee: 0,
            Code: 'InvalidParameterValue.IncorrectPhoneNumber',
            Message: 'incorrect phone number',
          }
        sent.push({
          phone: number,
          appId: body.SmsSdkAppId!,
          signName: body.SignName ?? '',
          templateId: body.TemplateId!,
          params: body.TemplateParamSet ?? [],
        })
        return { ...base, Code: 'Ok', Message: 'send success' }
      })
      return reply({ SendStatusSet: statuses })
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
