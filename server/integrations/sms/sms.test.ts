import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { randomIp, randomPhone } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { freePort } from '#tests/support/free-port.ts'
import { createAliyunSms, popSignature } from './aliyun.ts'
import { startAliyunSimulator, type AliyunSimulator } from './aliyun-simulator.ts'
import { createConsoleSms } from './console.ts'
import { createSmsProvider } from './provider.ts'
import { SmsSendError } from './sms.ts'
import { createTencentSms } from './tencent.ts'
import { startTencentSimulator, type TencentSimulator } from './tencent-simulator.ts'

/** The provider code an SMS failure carried, or 'sent'. */
async function outcome(send: Promise<void>) {
  try {
    await send
    return 'sent'
  } catch (err) {
    expect(err).toBeInstanceOf(SmsSendError)
    expect((err as SmsSendError).entry.code).toBe(432)
    return (err as SmsSendError).providerCode
  }
}

describe('Aliyun SMS adapter', () => {
  const credentials = { accessKeyId: 'LTAI5tTestKeyId', accessKeySecret: 'testSecretValue' }
  let sim: AliyunSimulator
  beforeAll(async () => {
    sim = await startAliyunSimulator(credentials)
  })
  afterAll(() => sim.close())
  const adapter = (overrides: Partial<Parameters<typeof createAliyunSms>[0]> = {}) =>
    createAliyunSms({
      endpoint: sim.url,
      ...credentials,
      signName: '自学',
      templateCode: 'SMS_123456789',
      ...overrides,
    })

  it('signs as Aliyun documents (its published example)', () => {
    const params = {
      AccessKeyId: 'testid',
      Action: 'DescribeRegions',
      Format: 'XML',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0',
      Timestamp: '2016-02-23T12:46:24Z',
      Version: '2014-05-26',
    }
    expect(popSignature('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=')
  })

  it('sends a code the simulator accepts', async () => {
    sim.failWith(null)
    expect(await outcome(adapter().send('13800138000', '0427', 'login'))).toBe('sent')
    expect(sim.sent.at(-1)).toEqual({
      phone: '13800138000',
      signName: '自学',
      templateCode: 'SMS_123456789',
      templateParam: { code: '0427' },
    })
  })

  it('fails with SignatureDoesNotMatch when the secret is wrong', async () => {
    expect(await outcome(adapter({ accessKeySecret: 'wrong' }).send('13800138000', '1234', 'login'))).toBe(
      'SignatureDoesNotMatch',
    )
  })

  it('fails with InvalidAccessKeyId.NotFound for an unknown key', async () => {
    expect(await outcome(adapter({ accessKeyId: 'nobody' }).send('13800138000', '1234', 'login'))).toBe(
      'InvalidAccessKeyId.NotFound',
    )
  })

  it('fails with InvalidTimeStamp.Expired when the clock is off by 20 minutes', async () => {
    const clock = () => new Date(Date.now() - 20 * 60_000)
    expect(await outcome(adapter({ clock }).send('13800138000', '1234', 'login'))).toBe('InvalidTimeStamp.Expired')
  })

  it('passes on flow control (isv.BUSINESS_LIMIT_CONTROL) as a failure', async () => {
    sim.failWith('isv.BUSINESS_LIMIT_CONTROL')
    expect(await outcome(adapter().send('13800138000', '1234', 'login'))).toBe('isv.BUSINESS_LIMIT_CONTROL')
    sim.failWith(null)
  })

  it('fails with NetworkError when nothing listens', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}/`
    expect(await outcome(adapter({ endpoint }).send('13800138000', '1234', 'login'))).toBe('NetworkError')
  })
})

describe('Tencent SMS adapter', () => {
  const credentials = { secretId: 'AKIDtestSecretId', secretKey: 'testSecretKey', appId: '1400000001' }
  let sim: TencentSimulator
  beforeAll(async () => {
    sim = await startTencentSimulator(credentials)
  })
  afterAll(() => sim.close())
  const adapter = (overrides: Partial<Parameters<typeof createTencentSms>[0]> = {}) =>
    createTencentSms({
      endpoint: sim.url,
      ...credentials,
      region: 'ap-guangzhou',
      signName: '自学网',
      templateId: '1234567',
      ...overrides,
    })

  it('sends a code the simulator accepts', async () => {
    sim.failWith(null)
    expect(await outcome(adapter().send('13800138000', '0427', 'login'))).toBe('sent')
    expect(sim.sent.at(-1)).toEqual({
      phone: '+8613800138000',
      appId: '1400000001',
      signName: '自学网',
      templateId: '1234567',
      params: ['0427'],
    })
  })

  it('fails with AuthFailure.SignatureFailure when the key is wrong', async () => {
    expect(await outcome(adapter({ secretKey: 'wrong' }).send('13800138000', '1234', 'login'))).toBe(
      'AuthFailure.SignatureFailure',
    )
  })

  it('fails with AuthFailure.SecretIdNotFound for an unknown id', async () => {
    expect(await outcome(adapter({ secretId: 'AKIDnobody' }).send('13800138000', '1234', 'login'))).toBe(
      'AuthFailure.SecretIdNotFound',
    )
  })

  it('fails with AuthFailure.SignatureExpire when the clock is off by 10 minutes', async () => {
    const clock = () => new Date(Date.now() + 10 * 60_000)
    expect(await outcome(adapter({ clock }).send('13800138000', '1234', 'login'))).toBe('AuthFailure.SignatureExpire')
  })

  it('fails for another SMS application', async () => {
    expect(await outcome(adapter({ appId: '1400999999' }).send('13800138000', '1234', 'login'))).toBe(
      'FailedOperation.SmsSdkAppIdVerifyFail',
    )
  })

  it('passes on a per-number refusal (LimitExceeded.PhoneNumberThirtySecondLimit) as a failure', async () => {
    sim.failWith('LimitExceeded.PhoneNumberThirtySecondLimit')
    expect(await outcome(adapter().send('13800138000', '1234', 'login'))).toBe(
      'LimitExceeded.PhoneNumberThirtySecondLimit',
    )
    sim.failWith(null)
  })
})

describe('console SMS provider', () => {
  it('prints the code only when asked to, and keeps the last 50 messages', async () => {
    const lines: string[] = []
    const quiet = createConsoleSms({ print: false, write: (l) => lines.push(l) })
    await quiet.send('13800138000', '1234', 'login')
    expect(lines).toEqual([])
    const loud = createConsoleSms({ print: true, write: (l) => lines.push(l) })
    for (let i = 0; i < 55; i++) await loud.send(`138001380${String(i).padStart(2, '0')}`, String(1000 + i), 'login')
    expect(lines.at(-1)).toBe('[sms] 13800138054 → 1054 (login)')
    expect(loud.outbox!.list()).toHaveLength(50)
    expect(loud.outbox!.list()[0]!.code).toBe('1054')
    expect(loud.outbox!.list('13800138054')).toHaveLength(1)
  })

  it('prints in the demo and development, not in tests', async () => {
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    try {
      await createSmsProvider(loadConfig({ APP_ENV: 'test' })).send('13800138000', '1111', 'login')
      expect(spy).not.toHaveBeenCalled()
      await createSmsProvider(loadConfig({ APP_ENV: 'demo' })).send('13800138000', '2222', 'login')
      expect(spy).toHaveBeenCalledWith('[sms] 13800138000 → 2222 (login)\n')
    } finally {
      spy.mockRestore()
    }
  })
})

describe('POST /api/send_code through the configured Aliyun provider', () => {
  const credentials = { accessKeyId: 'LTAI5tAppKey', accessKeySecret: 'appSecret' }
  const env: Record<string, string> = {
    SMS_PROVIDER: 'aliyun',
    SMS_TEMPLATE_CODE: 'SMS_000001',
    ALIYUN_ACCESS_KEY_ID: credentials.accessKeyId,
    ALIYUN_ACCESS_KEY_SECRET: credentials.accessKeySecret,
  }
  let sim: AliyunSimulator
  beforeAll(async () => {
    sim = await startAliyunSimulator(credentials)
    env.ALIYUN_SMS_ENDPOINT = sim.url
  })
  afterAll(() => sim.close())
  const t = useTestApp(env)

  it('sends the code through Aliyun', async () => {
    const phone = randomPhone()
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone },
      remoteAddress: randomIp(),
    })
    expect(res.json<{ code: number }>().code).toBe(200)
    expect(sim.sent.at(-1)).toMatchObject({
      phone,
      templateCode: 'SMS_000001',
      templateParam: { code: expect.stringMatching(/^\d{4}$/) as string },
    })
    // Not the console provider: the outbox stays empty.
    const outbox = await t().app.inject({ method: 'GET', url: `/api/dev/outbox?phone=${phone}` })
    expect(outbox.json<{ data: { list: unknown[] } }>().data.list).toEqual([])
  })

  it('answers 432 when Aliyun refuses', async () => {
    sim.failWith('isv.AMOUNT_NOT_ENOUGH')
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone: randomPhone() },
      remoteAddress: randomIp(),
    })
    expect(res.json()).toEqual({ code: 432, msg: '短信发送失败，请稍后重试', data: {} })
    sim.failWith(null)
  })
})

describe('POST /api/send_code through the configured Tencent provider', () => {
  const credentials = { secretId: 'AKIDappId', secretKey: 'appKey', appId: '1400000002' }
  const env: Record<string, string> = {
    SMS_PROVIDER: 'tencent',
    SMS_TEMPLATE_CODE: '987654',
    TENCENT_SECRET_ID: credentials.secretId,
    TENCENT_SECRET_KEY: credentials.secretKey,
    TENCENT_SMS_APP_ID: credentials.appId,
  }
  let sim: TencentSimulator
  beforeAll(async () => {
    sim = await startTencentSimulator(credentials)
    env.TENCENT_SMS_ENDPOINT = sim.url
  })
  afterAll(() => sim.close())
  const t = useTestApp(env)

  it('sends the code through Tencent', async () => {
    const phone = randomPhone()
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone },
      remoteAddress: randomIp(),
    })
    expect(res.json<{ code: number }>().code).toBe(200)
    expect(sim.sent.at(-1)).toMatchObject({
      phone: `+86${phone}`,
      templateId: '987654',
      params: [expect.stringMatching(/^\d{4}$/) as string],
    })
  })

  it('answers 432 when Tencent refuses the number', async () => {
    sim.failWith('LimitExceeded.PhoneNumberDailyLimit')
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone: randomPhone() },
      remoteAddress: randomIp(),
    })
    expect(res.json<{ code: number }>().code).toBe(432)
    sim.failWith(null)
  })
})
