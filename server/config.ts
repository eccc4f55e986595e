import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { paymentConfig, paymentEnv } from '#server/integrations/payments/payments-config.ts'
import { storageConfig, storageEnv } from '#server/integrations/storage/stores.ts'
import { platformConfig, platformEnv } from '#server/integrations/platforms/platforms-config.ts'

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')

const optionalUrl = z.url({ protocol: /^https?$/ }).optional()

/**
 * Every environment variable the server reads, with its default. `.env.example` and the README's configuration
 * reference list the same variables; nothing else reads `process.env`.
 */
const envSchema = z.object({
  /** demo: simulators for SMS, WeChat and payments and the code outbox; production: real providers only. */
  APP_ENV: z.enum(['demo', 'development', 'test', 'production']).default('demo'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * PEM certificate chain and private key: with both, the server speaks TLS itself, HTTP/2 to browsers that offer
   * it (ALPN) and HTTP/1.1 to the rest; without, plain HTTP/1.1 behind a proxy that terminates TLS (docs/deploy.md).
   */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  /**
   * Hosts (host[:port], comma-separated) whose address a visitor may be sent back to from payment pages, e.g. the
   * LAN address of a demo opened from a phone; any other Host gets PUBLIC_URL.
   */
  TRUSTED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:]+\](:\d{1,5})?$/, 'host or host:port'))),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * One access-log line per request at info, fast reads capped by ACCESS_LOG_PER_SECOND (`all`), only for status
   * ≥ 400 (`errors`), or none (`off`).
   */
  ACCESS_LOG: z.enum(['all', 'errors', 'off']).default('all'),
  /**
   * `all` logs at most this many reads answered below 400 a second (each process), and then how many it left out;
   * writes, errors and slow answers always. 0: every one (docs/decisions/2026-11-27-access-log-cap.md).
   */
  ACCESS_LOG_PER_SECOND: z.coerce.number().int().min(0).default(100),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10),
  SEED_DEMO: bool.default(true),
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_PRIVATE_DIR: z.string().min(1).optional(),
  MEDIA_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(7200),
  VIDEO_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(2 * 1024 ** 3),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  TRANSCODE_PRESET: z
    .enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow'])
    .default('veryfast'),
  JOB_WORKER: bool.default(true),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  /** Where `react-router build` wrote the front end (react-router.config.ts reads the same variable). */
  BUILD_DIR: z.string().min(1).default('./build'),
  TRUST_PROXY: bool.default(false),
  /** The API explorer at /api/docs: on outside production, in production only when true. */
  SWAGGER_UI: bool.default(false),
  /** The rate limit (server/http/rate-limit.ts): on unless APP_ENV=test; test and bench helpers set false. */
  RATE_LIMIT: bool.optional(),
  /** Requests a minute per address on routes without a tighter rule. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * The in-memory caches of public reads (course pages, course lists, home feeds, the VIP centre, bundle offers,
   * recommendations, lesson facts); false sends every such read to PostgreSQL (benchmarks and diagnosis only).
   */
  PUBLIC_READ_CACHE: bool.default(true),
  SMS_PROVIDER: z.enum(['console', 'aliyun', 'tencent']).default('console'),
  SMS_SIGN_NAME: z.string().default('自学'),
  SMS_TEMPLATE_CODE: z.string().default(''),
  /** Codes one client address may ask for in an hour (many learners behind one campus or office NAT need more). */
  SMS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Days a tuition payment may be overdue before the programme's access pauses (issue 15 §3). */
  TUITION_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /** How long a staff member's sign-in lasts (learners' last 30 days). */
  STAFF_SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /** HMAC key of stored SMS codes (server/modules/auth/auth.rules.ts); required in production. */
  SMS_CODE_PEPPER: z.string().min(32, 'must be at least 32 characters').optional(),
  /** HMAC key under which redeem codes are stored (server/modules/redeem/code-format.ts); required in production. */
  REDEEM_CODE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Wrong redeem codes one member, and one client address, may try in an hour before 429. */
  REDEEM_WRONG_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(10),
  ALIYUN_SMS_ENDPOINT: z.url().default('https://dysmsapi.aliyuncs.com/'),
  ALIYUN_ACCESS_KEY_ID: z.string().default(''),
  ALIYUN_ACCESS_KEY_SECRET: z.string().default(''),
  TENCENT_SMS_ENDPOINT: z.url().default('https://sms.tencentcloudapi.com/'),
  TENCENT_SECRET_ID: z.string().default(''),
  TENCENT_SECRET_KEY: z.string().default(''),
  TENCENT_SMS_APP_ID: z.string().default(''),
  TENCENT_SMS_REGION: z.string().default('ap-guangzhou'),
  WECHAT_APP_ID: z.string().default(''),
  WECHAT_APP_SECRET: z.string().default(''),
  WECHAT_API_BASE: optionalUrl,
  WECHAT_OPEN_BASE: optionalUrl,
  /** WeChat sign-ins one client address may start in 10 minutes (a campus or office NAT may need more). */
  WECHAT_OAUTH_PER_IP_PER_10MIN: z.coerce.number().int().min(1).max(100_000).default(300),
  SERVICE_URL: z.url().default('https://work.weixin.qq.com/kfid/kfc-zixue-service'),
  CONSULT_URL: z.url().default('https://work.weixin.qq.com/kfid/kfc-zixue-consult'),
  /** Show the consult button (spec 2) on the checkout pages too; it always shows on system courses and VIP. */
  CONSULT_ON_CHECKOUT: bool.default(false),
  DEV_OUTBOX: bool.optional(),
  /** Bearer token of GET /metrics (Prometheus); unset: no metrics endpoint. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** WeChat Pay, Alipay, order expiry and the payment sweeps: server/integrations/payments/payments-config.ts. */
  ...paymentEnv,
  /** Local folders or S3-compatible buckets: server/integrations/storage/stores.ts. */
  ...storageEnv,
  /** Douyin (and later Kuaishou, Xiaohongshu, WeChat Shop) order exchange: server/integrations/platforms. */
  ...platformEnv,
})

export type Env = z.input<typeof envSchema>

/** The SMS code pepper of demo, development and test; production must set its own SMS_CODE_PEPPER. */
/** The redeem-code HMAC key of demo, development and test; production must set its own REDEEM_CODE_SECRET. */
const DEV_REDEEM_CODE_SECRET = 'zixue-development-redeem-code-secret-not-for-production'
export const DEV_SMS_CODE_PEPPER = 'zixue-development-sms-code-pepper-not-for-production'

/** The validated, typed configuration the whole server is built from. */
export type Config = ReturnType<typeof loadConfig>

export class ConfigError extends Error {}

/** TLS_CERT_FILE and TLS_KEY_FILE as absolute paths, both readable; null when neither is set. */
function tlsFiles(e: { TLS_CERT_FILE?: string | undefined; TLS_KEY_FILE?: string | undefined }, cwd: string) {
  if (!e.TLS_CERT_FILE && !e.TLS_KEY_FILE) return null
  if (!e.TLS_CERT_FILE || !e.TLS_KEY_FILE)
    throw new ConfigError('Invalid configuration:\n  TLS_CERT_FILE and TLS_KEY_FILE: set both, or neither')
  const files = { certFile: path.resolve(cwd, e.TLS_CERT_FILE), keyFile: path.resolve(cwd, e.TLS_KEY_FILE) }
  for (const [name, file] of [
    ['TLS_CERT_FILE', files.certFile],
    ['TLS_KEY_FILE', files.keyFile],
  ] as const) {
    try {
      fs.accessSync(file, fs.constants.R_OK)
    } catch {
      throw new ConfigError(`Invalid configuration:\n  ${name}: cannot read ${file}`)
    }
  }
  return files
}

/**
 * Reads `<cwd>/.env` (a copy of `.env.example`) into `process.env` when there is one; the entry points call it
 * before `loadConfig`. A variable set in the real environment wins over the file, even when it is empty.
 */
export function loadEnvFile(cwd = process.cwd()) {
  const file = path.join(cwd, '.env')
  if (fs.existsSync(file)) process.loadEnvFile(file)
}

/** Parses the environment once; a wrong value throws a ConfigError that names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const production = e.APP_ENV === 'production'
  const dataDir = path.resolve(cwd, e.DATA_DIR)
  const tls = tlsFiles(e, cwd)
  const publicUrl = (e.PUBLIC_URL ?? `${tls ? 'https' : 'http'}://localhost:${e.PORT}`).replace(/\/$/, '')
  const wechatSimulated = e.WECHAT_APP_ID === ''
  if (production && e.DEV_OUTBOX)
    throw new ConfigError('Invalid configuration:\n  DEV_OUTBOX: must not be enabled in production')
  if (production && e.SMS_PROVIDER === 'console')
    throw new ConfigError(
      'Invalid configuration:\n  SMS_PROVIDER: console is for development and the demo; set aliyun or tencent in production',
    )
  if (production && !e.MEDIA_SIGNING_SECRET)
    throw new ConfigError(
      'Invalid configuration:\n  MEDIA_SIGNING_SECRET: required in production (at least 32 random characters)',
    )
  if (production && !e.SMS_CODE_PEPPER)
    throw new ConfigError(
      'Invalid configuration:\n  SMS_CODE_PEPPER: required in production (at least 32 random characters)',
    )
  if (production && !e.REDEEM_CODE_SECRET)
    throw new ConfigError(
      'Invalid configuration:\n  REDEEM_CODE_SECRET: required in production (at least 32 random characters)',
    )
  const smsKeys = {
    console: [],
    aliyun: ['ALIYUN_ACCESS_KEY_ID', 'ALIYUN_ACCESS_KEY_SECRET', 'SMS_TEMPLATE_CODE'],
    tencent: ['TENCENT_SECRET_ID', 'TENCENT_SECRET_KEY', 'TENCENT_SMS_APP_ID', 'SMS_TEMPLATE_CODE'],
  } as const
  const missingSms = smsKeys[e.SMS_PROVIDER].filter((key) => e[key] === '')
  if (e.SMS_PROVIDER !== 'console' && missingSms.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${missingSms.map((k) => `  ${k}: required when SMS_PROVIDER is ${e.SMS_PROVIDER}`).join('\n')}`,
    )
  }
  if (production && wechatSimulated)
    throw new ConfigError(
      'Invalid configuration:\n  WECHAT_APP_ID: required in production (the WeChat simulator is for development and the demo)',
    )
  const wechatAppId = wechatSimulated ? 'wx_simulated_app' : e.WECHAT_APP_ID
  const payments = paymentConfig(e, { production, publicUrl, wechatAppId })
  if (payments.problems.length > 0) throw new ConfigError(`Invalid configuration:\n${payments.problems.join('\n')}`)
  const mediaDir = path.resolve(cwd, e.MEDIA_DIR ?? path.join(e.DATA_DIR, 'media'))
  const privateDir = path.resolve(cwd, e.MEDIA_PRIVATE_DIR ?? path.join(e.DATA_DIR, 'media-private'))
  const storage = storageConfig(e, { publicDir: mediaDir, privateDir })
  if (storage.problems.length > 0) throw new ConfigError(`Invalid configuration:\n${storage.problems.join('\n')}`)
  const platforms = platformConfig(e, { production, publicUrl })
  if (platforms.problems.length > 0) throw new ConfigError(`Invalid configuration:\n${platforms.problems.join('\n')}`)
  return {
    env: e.APP_ENV,
    production,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    /** The certificate and key files when the server terminates TLS itself (HTTP/2 with HTTP/1.1 fallback). */
    tls,
    trustedHosts: e.TRUSTED_HOSTS,
    logLevel: e.LOG_LEVEL,
    accessLog: { mode: e.ACCESS_LOG, perSecond: e.ACCESS_LOG_PER_SECOND },
    trustProxy: e.TRUST_PROXY,
    swaggerUi: e.SWAGGER_UI,
    rateLimit: (e.RATE_LIMIT ?? e.APP_ENV !== 'test') ? { perMinute: e.RATE_LIMIT_PER_MINUTE } : null,
    /** False: the public reads' caches are off (`cacheMs: 0` for every service that has one). */
    publicReadCache: e.PUBLIC_READ_CACHE,
    bodyLimit: e.BODY_LIMIT_BYTES,
    buildDir: path.resolve(cwd, e.BUILD_DIR),
    dataDir,
    mediaDir,
    /** Where media lives: the two local folders, or the two buckets of an S3-compatible store. */
    storage: storage.config,
    media: {
      /** Sources, HLS output and anything else never served as a plain file: outside the public media folder. */
      privateDir,
      /** Null outside production when unset: server/modules/media/signing.ts then uses one stored in the database. */
      signingSecret: e.MEDIA_SIGNING_SECRET ?? null,
      urlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
      uploadMaxBytes: e.VIDEO_UPLOAD_MAX_BYTES,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      transcodePreset: e.TRANSCODE_PRESET,
      /** Run the job worker (transcoding) in this process; turn off on web-only processes. */
      worker: e.JOB_WORKER,
    },
    database: {
      url: e.DATABASE_URL,
      embeddedPort: e.EMBEDDED_PG_PORT,
      embeddedDir: path.join(dataDir, 'pg'),
      poolSize: e.DATABASE_POOL_SIZE,
    },
    seedDemo: e.SEED_DEMO,
    /** Staff sign-ins (members holding a staff role) expire this many hours after the sign-in. */
    staffSessionHours: e.STAFF_SESSION_HOURS,
    sms: {
      provider: e.SMS_PROVIDER,
      signName: e.SMS_SIGN_NAME,
      templateCode: e.SMS_TEMPLATE_CODE,
      perIpPerHour: e.SMS_PER_IP_PER_HOUR,
      /**
       * Keys the HMAC of stored codes, so the sms_codes table alone cannot be brute-forced back to codes. Outside
       * production a fixed development value (never set in production: the check above refuses to start).
       */
      codePepper: e.SMS_CODE_PEPPER ?? DEV_SMS_CODE_PEPPER,
      aliyun: {
        endpoint: e.ALIYUN_SMS_ENDPOINT,
        accessKeyId: e.ALIYUN_ACCESS_KEY_ID,
        accessKeySecret: e.ALIYUN_ACCESS_KEY_SECRET,
      },
      tencent: {
        endpoint: e.TENCENT_SMS_ENDPOINT,
        secretId: e.TENCENT_SECRET_ID,
        secretKey: e.TENCENT_SECRET_KEY,
        appId: e.TENCENT_SMS_APP_ID,
        region: e.TENCENT_SMS_REGION,
      },
    },
    /** System courses (issue 15): the days a tuition payment may be overdue before access pauses. */
    tuition: { graceDays: e.TUITION_GRACE_DAYS },
    /** Redeem codes: the HMAC key of stored codes and the guessing limit (issue 14 §1). */
    redeem: {
      codeSecret: e.REDEEM_CODE_SECRET ?? DEV_REDEEM_CODE_SECRET,
      wrongPerHour: e.REDEEM_WRONG_PER_HOUR,
    },
    /** The development outbox page shows sent SMS codes; it can never be on in production. */
    devOutbox: production ? false : (e.DEV_OUTBOX ?? true),
    wechat: {
      appId: wechatSimulated ? 'wx_simulated_app' : e.WECHAT_APP_ID,
      appSecret: wechatSimulated ? 'simulated_secret' : e.WECHAT_APP_SECRET,
      simulated: wechatSimulated,
      /** api.weixin.qq.com, or the local simulator mounted by this server when no AppID is configured. */
      apiBase: (
        e.WECHAT_API_BASE ?? (wechatSimulated ? `${publicUrl}/__sim/wechat` : 'https://api.weixin.qq.com')
      ).replace(/\/$/, ''),
      /** open.weixin.qq.com (the authorize page), or the simulator's. */
      openBase: (
        e.WECHAT_OPEN_BASE ?? (wechatSimulated ? `${publicUrl}/__sim/wechat` : 'https://open.weixin.qq.com')
      ).replace(/\/$/, ''),
      /** OAuth starts (GET /api/wechat/oauth) one client address may make in 10 minutes. */
      oauthPerIpPer10Min: e.WECHAT_OAUTH_PER_IP_PER_10MIN,
    },
    /** Orders and payments: providers (or their simulators), order expiry, sweeps. */
    payments: payments.config,
    /** Platforms whose orders are exchanged for courses (real, simulated, or off). */
    platforms: platforms.config,
    /** GET /metrics answers whoever sends this token (`Authorization: Bearer …`); null: no metrics endpoint. */
    metricsToken: e.METRICS_TOKEN ?? null,
    /** Sent to the browser: only what is listed here leaves the server. */
    client: {
      serviceUrl: e.SERVICE_URL,
      consultUrl: e.CONSULT_URL,
      consultOnCheckout: e.CONSULT_ON_CHECKOUT,
      /** WeChat's JS-SDK (sharing); the simulator's stand-in when no AppID is configured (demo, tests). */
      wechatJsSdk: wechatSimulated ? '/__sim/wechat/jweixin.js' : 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js',
    },
  }
}
