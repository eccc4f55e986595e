import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, DEV_SMS_CODE_PEPPER, loadConfig, loadEnvFile } from './config.ts'

describe('loadConfig', () => {
  it('gives the demo defaults with no environment at all', () => {
    const config = loadConfig({}, '/srv/zixue')
    expect(config.env).toBe('demo')
    expect(config.port).toBe(3000)
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(config.database.url).toBeUndefined()
    expect(config.database.embeddedDir).toBe('/srv/zixue/data/pg')
    expect(config.mediaDir).toBe('/srv/zixue/data/media')
    expect(config.devOutbox).toBe(true)
    expect(config.wechat.simulated).toBe(true)
    expect(config.wechat.apiBase).toBe('http://localhost:3000/__sim/wechat')
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ APP_ENV: 'staging' }, 'APP_ENV'],
    [{ SEED_DEMO: 'yes' }, 'SEED_DEMO'],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL'],
    // A background round holds one connection while it works on another (withTryLock).
    [{ DATABASE_POOL_SIZE: '1' }, 'DATABASE_POOL_SIZE'],
  ])('names the wrong variable in %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `))
  })

  it('refuses demo-only providers in production', () => {
    const real = {
      APP_ENV: 'production',
      SMS_PROVIDER: 'aliyun',
      ALIYUN_ACCESS_KEY_ID: 'id',
      ALIYUN_ACCESS_KEY_SECRET: 'secret',
      SMS_TEMPLATE_CODE: 'SMS_1',
      WECHAT_APP_ID: 'wx123',
      WECHAT_APP_SECRET: 's',
      MEDIA_SIGNING_SECRET: 'a-production-secret-of-at-least-32-chars',
      SMS_CODE_PEPPER: 'a-production-pepper-of-at-least-32-chars',
      REDEEM_CODE_SECRET: 'a-production-redeem-secret-of-32-chars',
    }
    expect(() => loadConfig({ ...real, SMS_PROVIDER: 'console' })).toThrow(/SMS_PROVIDER/)
    expect(() => loadConfig({ ...real, WECHAT_APP_ID: '' })).toThrow(/WECHAT_APP_ID/)
    expect(() => loadConfig({ ...real, DEV_OUTBOX: 'true' })).toThrow(/DEV_OUTBOX/)
    expect(() => loadConfig({ ...real, MEDIA_SIGNING_SECRET: '' })).toThrow(/MEDIA_SIGNING_SECRET: required/)
    expect(() => loadConfig({ ...real, MEDIA_SIGNING_SECRET: 'short' })).toThrow(
      /MEDIA_SIGNING_SECRET: must be at least 32/,
    )
    expect(() => loadConfig({ ...real, SMS_CODE_PEPPER: '' })).toThrow(
      /^Invalid configuration:\n {2}SMS_CODE_PEPPER: required in production/,
    )
    expect(() => loadConfig({ ...real, SMS_CODE_PEPPER: 'short' })).toThrow(/SMS_CODE_PEPPER: must be at least 32/)
    expect(() => loadConfig({ ...real, REDEEM_CODE_SECRET: '' })).toThrow(
      /^Invalid configuration:\n {2}REDEEM_CODE_SECRET: required in production/,
    )
    const config = loadConfig(real)
    expect(config.redeem.codeSecret).toBe('a-production-redeem-secret-of-32-chars')
    expect(config.sms.codePepper).toBe('a-production-pepper-of-at-least-32-chars')
    expect(config.devOutbox).toBe(false)
    expect(config.wechat.apiBase).toBe('https://api.weixin.qq.com')
  })

  it('uses a fixed development SMS code pepper outside production, and the one given when set', () => {
    for (const APP_ENV of ['demo', 'development', 'test'])
      expect(loadConfig({ APP_ENV }).sms.codePepper).toBe(DEV_SMS_CODE_PEPPER)
    expect(loadConfig({ SMS_CODE_PEPPER: 'x'.repeat(32) }).sms.codePepper).toBe('x'.repeat(32))
    expect(() => loadConfig({ SMS_CODE_PEPPER: 'too-short' })).toThrow(
      /^Invalid configuration:\n {2}SMS_CODE_PEPPER: must be at least 32/,
    )
  })

  it('limits WeChat OAuth starts to 300 per address in 10 minutes unless WECHAT_OAUTH_PER_IP_PER_10MIN says otherwise', () => {
    expect(loadConfig({}).wechat.oauthPerIpPer10Min).toBe(300)
    expect(loadConfig({ WECHAT_OAUTH_PER_IP_PER_10MIN: '500' }).wechat.oauthPerIpPer10Min).toBe(500)
    expect(() => loadConfig({ WECHAT_OAUTH_PER_IP_PER_10MIN: '0' })).toThrow(/WECHAT_OAUTH_PER_IP_PER_10MIN/)
    expect(() => loadConfig({ WECHAT_OAUTH_PER_IP_PER_10MIN: 'many' })).toThrow(/WECHAT_OAUTH_PER_IP_PER_10MIN/)
  })

  it('needs the keys of the chosen SMS provider', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun' })).toThrow(
      /ALIYUN_ACCESS_KEY_ID: required when SMS_PROVIDER is aliyun/,
    )
    expect(() => loadConfig({ SMS_PROVIDER: 'tencent', TENCENT_SECRET_ID: 'id' })).toThrow(/TENCENT_SECRET_KEY/)
    expect(
      loadConfig({
        SMS_PROVIDER: 'tencent',
        TENCENT_SECRET_ID: 'a',
        TENCENT_SECRET_KEY: 'b',
        TENCENT_SMS_APP_ID: 'c',
        SMS_TEMPLATE_CODE: 'd',
      }).sms.provider,
    ).toBe('tencent')
  })

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000)
  })
})

describe('loadEnvFile', () => {
  it('reads .env into the environment, with the real environment winning, and does nothing without one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-env-'))
    const names = ['PORT', 'LOG_LEVEL', 'SEED_DEMO'] as const
    const saved = names.map((n) => process.env[n])
    try {
      fs.writeFileSync(path.join(dir, '.env'), '# a copy of .env.example\nPORT=4321\nLOG_LEVEL=warn\nSEED_DEMO=false\n')
      delete process.env.PORT
      delete process.env.SEED_DEMO
      process.env.LOG_LEVEL = 'error'
      loadEnvFile(dir)
      const config = loadConfig(process.env, dir)
      expect(config.port).toBe(4321)
      expect(config.seedDemo).toBe(false)
      expect(config.logLevel).toBe('error')

      delete process.env.PORT
      loadEnvFile(path.join(dir, 'no-such-folder'))
      expect(process.env.PORT).toBeUndefined()
    } finally {
      names.forEach((n, i) => (saved[i] === undefined ? delete process.env[n] : (process.env[n] = saved[i])))
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
