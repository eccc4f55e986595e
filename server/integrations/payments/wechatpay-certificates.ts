import crypto from 'node:crypto'
import { z } from 'zod'
import {
  decryptResource,
  verifyWechatpaySignature,
  type EncryptedResource,
  type WechatpaySignedHeaders,
  type WechatpayVerifierKeys,
} from './wechatpay-crypto.ts'

/**
 * WeChat Pay platform certificates, downloaded (GET /v3/certificates) for merchants that verify with them rather
 * than with the WeChat Pay public key. WeChat rotates them: a new certificate is listed some days before answers
 * and notifications are signed with it, and the old one stays listed until it expires.
 */

/** A platform certificate's serial (upper-case hex, as Wechatpay-Serial sends it), key and expiry. */
export interface PlatformCertificate {
  serial: string
  publicKey: crypto.KeyObject
  /** null: not known (a configured certificate is used whatever its dates). */
  expiresAt: Date | null
}

const encrypted = z.object({
  algorithm: z.string(),
  nonce: z.string(),
  associated_data: z.string().optional(),
  ciphertext: z.string(),
})

/** The answer of GET /v3/certificates. */
const certificatesAnswer = z.object({
  data: z
    .array(
      z.object({
        serial_no: z.string().regex(/^[0-9A-Fa-f]{1,64}$/),
        effective_time: z.string(),
        expire_time: z.string(),
        encrypt_certificate: encrypted,
      }),
    )
    .max(20),
})

/**
 * The certificates of a GET /v3/certificates answer, decrypted with the APIv3 key (AEAD_AES_256_GCM, associated
 * data "certificate"): the plaintext is the certificate PEM, and it must carry the serial it is listed under.
 * Throws when the answer is malformed or any certificate does not decrypt (a forged or garbled answer).
 */
export function decryptPlatformCertificates(json: unknown, apiV3Key: string): PlatformCertificate[] {
  const parsed = certificatesAnswer.safeParse(json)
  if (!parsed.success) throw new Error('not a /v3/certificates answer')
  return parsed.data.data.map((entry) => {
    let pem: string
    try {
      pem = decryptResource(entry.encrypt_certificate, apiV3Key)
    } catch {
      throw new Error(`certificate ${entry.serial_no} does not decrypt with the APIv3 key`)
    }
    let cert: crypto.X509Certificate
    try {
      cert = new crypto.X509Certificate(pem)
    } catch {
      throw new Error(`certificate ${entry.serial_no} is not a certificate`)
    }
    const serial = cert.serialNumber.toUpperCase()
    if (serial !== entry.serial_no.toUpperCase())
      throw new Error(`certificate listed as ${entry.serial_no} has serial ${serial}`)
    const expires = new Date(entry.expire_time)
    return {
      serial,
      publicKey: cert.publicKey,
      expiresAt: Number.isNaN(expires.getTime()) ? new Date(cert.validTo) : expires,
    }
  })
}

/** One listed certificate, encrypted the way WeChat Pay lists it (the simulator's side). */
export function encryptPlatformCertificate(input: {
  certificatePem: string
  apiV3Key: string
  nonce: string
  effectiveTime: string
  expireTime: string
}) {
  const cert = new crypto.X509Certificate(input.certificatePem)
  const cipher = crypto.createCipheriv(
    'aes-256-gcm',
    Buffer.from(input.apiV3Key, 'utf8'),
    Buffer.from(input.nonce, 'utf8'),
  )
  cipher.setAAD(Buffer.from('certificate', 'utf8'))
  const data = Buffer.concat([cipher.update(input.certificatePem, 'utf8'), cipher.final(), cipher.getAuthTag()])
  const encrypt_certificate: EncryptedResource = {
    algorithm: 'AEAD_AES_256_GCM',
    nonce: input.nonce,
    associated_data: 'certificate',
    ciphertext: data.toString('base64'),
  }
  return {
    serial_no: cert.serialNumber.toUpperCase(),
    effective_time: input.effectiveTime,
    expire_time: input.expireTime,
    encrypt_certificate,
  }
}

/** A signed answer of GET /v3/certificates, as received. */
interface CertificatesDownload {
  headers: WechatpaySignedHeaders | null
  body: string
}

export interface CertificateStoreOptions {
  apiV3Key: string
  /** Keys from the configuration: WECHATPAY_PLATFORM_CERT (a fallback when a download lacks its serial) and the public key. */
  configured: WechatpayVerifierKeys
  /** The signed GET /v3/certificates; null: never download (public-key mode, or switched off). */
  download: (() => Promise<CertificatesDownload>) | null
  now: () => Date
  /** Refresh this often (12 h). */
  refreshMs?: number
  /** Never download more often than this (1 min), whatever serials arrive. */
  minIntervalMs?: number
}

const CERTIFICATE_REFRESH_MS = 12 * 3600_000
const CERTIFICATE_MIN_INTERVAL_MS = 60_000

export interface CertificateStore {
  /** Every key to verify with now: downloaded certificates that have not expired, then the configured ones. */
  keys(): WechatpayVerifierKeys
  /** Whether a certificate (or the public key) with this serial is known now. */
  knows(serial: string): boolean
  /**
   * Downloads the certificates now unless a download ran less than a minute ago (then it waits for one in
   * flight, if any). True when the certificates were replaced.
   */
  refresh(): Promise<boolean>
  /** Starts a download in the background when the last good one is 12 h old (or there was none). */
  refreshIfDue(): void
  /** What the last download said: when it succeeded, and its error if it failed. */
  status(): { downloads: boolean; serials: string[]; refreshedAt: Date | null; lastError: string | null }
}

/**
 * The platform certificates a WeChat Pay adapter verifies with. Downloads replace the downloaded set only when
 * every certificate decrypts and the answer's own signature checks out against them (or a key already known); a
 * failed download keeps what there was. Downloads are serialised and at most one a minute, so a flood of
 * notifications with made-up serials costs WeChat Pay one request a minute.
 */
export function createCertificateStore(options: CertificateStoreOptions): CertificateStore {
  const refreshMs = options.refreshMs ?? CERTIFICATE_REFRESH_MS
  const minIntervalMs = options.minIntervalMs ?? CERTIFICATE_MIN_INTERVAL_MS
  let downloaded: PlatformCertificate[] = []
  let attemptedAt: number | null = null
  let refreshedAt: number | null = null
  let lastError: string | null = null
  let inFlight: Promise<boolean> | null = null

  function keys(): WechatpayVerifierKeys {
    const at = options.now().getTime()
    const fresh = downloaded.filter((c) => c.expiresAt === null || c.expiresAt.getTime() > at)
    const fallback = options.configured.certificates.filter(
      (c) => !fresh.some((f) => f.serial === c.serial.toUpperCase()),
    )
    return { certificates: [...fresh, ...fallback], publicKey: options.configured.publicKey }
  }

  function knows(serial: string) {
    if (serial.startsWith('PUB_KEY_ID_')) return options.configured.publicKey?.id === serial
    return keys().certificates.some((c) => c.serial.toUpperCase() === serial.toUpperCase())
  }

  async function download(): Promise<boolean> {
    try {
      const answer = await options.download!()
      let json: unknown
      try {
        json = JSON.parse(answer.body)
      } catch {
        throw new Error('the answer is not JSON')
      }
      const certificates = decryptPlatformCertificates(json, options.apiV3Key)
      if (certificates.length === 0) throw new Error('the answer lists no certificate')
      const current = keys()
      const verified = verifyWechatpaySignature(
        { certificates: [...certificates, ...current.certificates], publicKey: current.publicKey },
        answer.headers,
        answer.body,
        options.now(),
      )
      if (!verified.ok) throw new Error(`the answer failed verification: ${verified.detail}`)
      downloaded = certificates
      refreshedAt = options.now().getTime()
      lastError = null
      return true
    } catch (err) {
      lastError = err instanceof Error ? err.message.slice(0, 300) : 'download failed'
      return false
    }
  }

  function refresh(): Promise<boolean> {
    if (!options.download) return Promise.resolve(false)
    if (inFlight) return inFlight
    const at = options.now().getTime()
    if (attemptedAt !== null && at - attemptedAt < minIntervalMs) return Promise.resolve(false)
    attemptedAt = at
    inFlight = download().finally(() => {
      inFlight = null
    })
    return inFlight
  }

  return {
    keys,
    knows,
    refresh,
    refreshIfDue() {
      if (!options.download || inFlight) return
      if (refreshedAt !== null && options.now().getTime() - refreshedAt < refreshMs) return
      void refresh()
    },
    status() {
      return {
        downloads: options.download !== null,
        serials: keys().certificates.map((c) => c.serial),
        refreshedAt: refreshedAt === null ? null : new Date(refreshedAt),
        lastError,
      }
    },
  }
}
