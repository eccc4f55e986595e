import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Config } from '#server/config.ts'
import type { DbOrTx } from '#server/db/database.ts'
import { sharedSecret } from './media.repository.ts'

/**
 * What a signed playback URL grants: this video, to this member (0: anonymous), until `exp` (Unix seconds), and
 * up to `lim` seconds (the free preview) or to the end (null). Native HLS on iOS cannot send ZXB-Token, so every
 * playlist, segment and key URL carries these and their HMAC instead.
 */
export interface PlayClaims {
  videoId: number
  memberId: number
  exp: number
  lim: number | null
}

export interface SignedParams {
  mid: string
  exp: string
  lim?: string
  sig: string
}

function mac(secret: string, c: PlayClaims) {
  return crypto
    .createHmac('sha256', secret)
    .update(`zixue-play:v1:${c.videoId}:${c.memberId}:${c.exp}:${c.lim ?? 'full'}`)
    .digest('base64url')
}

/** The query string (without `?`) that carries the claims and their signature. */
export function signedQuery(secret: string, claims: PlayClaims) {
  const params = new URLSearchParams({ mid: String(claims.memberId), exp: String(claims.exp) })
  if (claims.lim !== null) params.set('lim', String(claims.lim))
  params.set('sig', mac(secret, claims))
  return params.toString()
}

export type VerifyResult = { ok: true; claims: PlayClaims } | { ok: false; problem: 'invalid' | 'expired' }

const uint = /^(0|[1-9]\d{0,9})$/

/** Checks the signature first (so an attacker learns nothing from the other checks), then the expiry. */
export function verifySigned(
  secret: string,
  videoId: number,
  params: Partial<Record<keyof SignedParams, unknown>>,
  nowSeconds: number,
): VerifyResult {
  const { mid, exp, lim, sig } = params
  if (typeof mid !== 'string' || typeof exp !== 'string' || typeof sig !== 'string')
    return { ok: false, problem: 'invalid' }
  if (!uint.test(mid) || !uint.test(exp) || (lim !== undefined && (typeof lim !== 'string' || !uint.test(lim)))) {
    return { ok: false, problem: 'invalid' }
  }
  const claims: PlayClaims = {
    videoId,
    memberId: Number(mid),
    exp: Number(exp),
    lim: lim === undefined ? null : Number(lim),
  }
  const expected = Buffer.from(mac(secret, claims))
  const given = Buffer.from(sig)
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    return { ok: false, problem: 'invalid' }
  if (claims.exp <= nowSeconds) return { ok: false, problem: 'expired' }
  return { ok: true, claims }
}

/**
 * The HMAC secret of playback URLs, which every process of a site must share: MEDIA_SIGNING_SECRET (required in
 * production); in tests a fixed value; otherwise (demo, development) a random one created once in the database,
 * so every process on it, whatever its data folder, signs alike. A secret an older version kept in
 * `$DATA_DIR/media-signing.secret` is taken over by the first process, so links already handed out stay valid.
 */
export function signingSecretSource(config: Config, db: DbOrTx): () => Promise<string> {
  const fixed = config.media.signingSecret ?? (config.env === 'test' ? TEST_SECRET : null)
  if (fixed) return () => Promise.resolve(fixed)
  let pending: Promise<string> | undefined
  const load = async () => {
    let candidate = crypto.randomBytes(32).toString('hex')
    try {
      const legacy = fs.readFileSync(path.join(config.dataDir, 'media-signing.secret'), 'utf8').trim()
      if (legacy.length >= 32) candidate = legacy
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    return sharedSecret(db, SECRET_NAME, candidate)
  }
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined
      throw err
    }))
}

const TEST_SECRET = 'zixue-test-media-signing-secret-not-for-production'
const SECRET_NAME = 'playback-signing'
