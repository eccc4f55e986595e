import type { Readable } from 'node:stream'
import type { Db } from '#server/db/database.ts'
import { readText, type MediaStores } from '#server/integrations/storage/storage.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { WatchDecision } from '#server/modules/access/access.service.ts'
import type { CatalogueFacts } from '#server/modules/catalogue/catalogue.service.ts'
import { parseMediaPlaylist, rewriteMasterPlaylist, rewriteMediaPlaylist, type Segment } from './hls.ts'
import { signedQuery, verifySigned, type PlayClaims, type SignedParams } from './signing.ts'
import { findPlayable, findVideoMedia } from './video-media.repository.ts'

export interface PlaybackDeps {
  db: Db
  stores: MediaStores
  /** The HMAC secret of playback URLs, shared by every process (signing.ts `signingSecretSource`). */
  secret: () => Promise<string>
  ttlSeconds: number
  /**
   * Answer segments with a short-lived URL of the private store (an S3 presigned GET) instead of streaming them
   * through this process; ignored for stores without such URLs (a local folder).
   */
  segmentRedirect?: boolean
  now: () => Date
  /** The access function's player view (server/modules/access `createAccessService(…).canWatch`). */
  canWatch: (memberId: number | null, videoId: number) => Promise<WatchDecision>
  /** The catalogue's cached lesson facts (a video's course and length). */
  facts: Pick<CatalogueFacts, 'lessons'>
}

export type SignedInput = Partial<Record<keyof SignedParams, unknown>>

const HLS_PREFIX = '/media/hls'
const renditionName = /^[a-z0-9]{1,16}$/
const segmentName = /^seg_\d{5,8}\.ts$/
/** Lifetime of a presigned segment URL (S3_SEGMENT_REDIRECT): the player follows the redirect at once. */
const SEGMENT_URL_TTL_SECONDS = 120

/** Parsed variant playlists by storage key; outputs never change under a key (a new transcode gets a new prefix). */
function playlistCache(limit = 500) {
  const map = new Map<string, Segment[]>()
  return {
    get: (key: string) => map.get(key),
    set(key: string, value: Segment[]) {
      if (map.size >= limit) map.delete(map.keys().next().value!)
      map.set(key, value)
    },
  }
}

export function createPlaybackService(deps: PlaybackDeps) {
  const { db, stores, secret, ttlSeconds, now, canWatch } = deps
  const segmentsByPlaylist = playlistCache()
  const nowSeconds = () => Math.floor(now().getTime() / 1000)

  const query = async (claims: PlayClaims) => signedQuery(await secret(), claims)

  async function verify(videoId: number, params: SignedInput): Promise<PlayClaims> {
    const result = verifySigned(await secret(), videoId, params, nowSeconds())
    if (result.ok) return result.claims
    throw new AppError(
      Codes.Forbidden,
      result.problem === 'expired' ? '播放链接已过期，请重新打开视频' : '播放链接无效',
    )
  }

  /** Entitlement now, for the member the URL was signed for; anything less than some access is refused. */
  async function decide(claims: PlayClaims): Promise<WatchDecision> {
    const decision = await canWatch(claims.memberId === 0 ? null : claims.memberId, claims.videoId)
    if (!decision.allowed) throw new AppError(Codes.Forbidden, '没有观看权限')
    return decision
  }

  async function playable(videoId: number) {
    const row = await findPlayable(db, videoId)
    if (!row) throw new AppError(Codes.NotFound, '视频不存在或还在处理中')
    return row
  }

  return {
    /**
     * Where a member (null: anonymous) plays a video: a signed master playlist URL valid for MEDIA_URL_TTL_SECONDS,
     * and until which second (the preview). NoWatchAccess without any access, VideoNotReady before transcoding ends.
     * `known`: the member's decision for this video when the caller has just asked for it (the video page).
     */
    async play(memberId: number | null, videoId: number, known?: WatchDecision) {
      const decision = known ?? (await canWatch(memberId, videoId))
      // The facts behind the decision are cached, so the video's own row costs nothing here.
      const [lesson, media] = await Promise.all([
        decision.reason === 'not_found' ? undefined : deps.facts.lessons([videoId]).then((m) => m.get(videoId)),
        findVideoMedia(db, videoId),
      ])
      if (!lesson) throw new AppError(Codes.NotFound, '视频不存在')
      if (!decision.allowed)
        throw new AppError(Codes.NoWatchAccess, undefined, { until_second: 0, reason: decision.reason })
      if (!media?.hlsPrefix) {
        throw new AppError(Codes.VideoNotReady, undefined, {
          status: media?.status ?? 'none',
          progress: media?.progress ?? 0,
        })
      }
      const claims: PlayClaims = {
        videoId,
        memberId: memberId ?? 0,
        exp: nowSeconds() + ttlSeconds,
        lim: decision.until_second,
      }
      return {
        vid: videoId,
        master_url: `${HLS_PREFIX}/${videoId}/master.m3u8?${await query(claims)}`,
        expires_at: claims.exp,
        until_second: decision.until_second,
        reason: decision.reason,
        duration: media.duration ?? lesson.durationSeconds,
        poster_url: media.posterKey ? stores.public.url(media.posterKey) : null,
      }
    },

    /** The master playlist with each variant's URL signed for the same member and expiry. */
    async master(videoId: number, params: SignedInput) {
      const claims = await verify(videoId, params)
      const decision = await decide(claims)
      const { hlsPrefix } = await playable(videoId)
      const text = await readText(stores.private, `${hlsPrefix}/master.m3u8`)
      if (text === null) throw new AppError(Codes.NotFound, '视频不存在或还在处理中')
      const q = await query({ ...claims, lim: decision.until_second })
      return rewriteMasterPlaylist(text, (uri) => {
        const rendition = uri.split('/')[0] ?? ''
        return `${HLS_PREFIX}/${videoId}/${encodeURIComponent(rendition)}/index.m3u8?${q}`
      })
    },

    /**
     * A rendition's playlist: segment and key URLs signed; for a member without full access it lists only the
     * segments that start before the preview ends, then ends, so the preview cannot be played past.
     */
    async variant(videoId: number, rendition: string, params: SignedInput) {
      const claims = await verify(videoId, params)
      if (!renditionName.test(rendition)) throw new AppError(Codes.NotFound, '视频不存在')
      const decision = await decide(claims)
      const { hlsPrefix } = await playable(videoId)
      const text = await readText(stores.private, `${hlsPrefix}/${rendition}/index.m3u8`)
      if (text === null) throw new AppError(Codes.NotFound, '视频不存在')
      const q = await query({ ...claims, lim: decision.until_second })
      return rewriteMediaPlaylist(text, {
        segmentUrl: (uri) => `${HLS_PREFIX}/${videoId}/${rendition}/${encodeURIComponent(uri)}?${q}`,
        keyUrl: `/api/video/key?vid=${videoId}&${q}`,
        untilSecond: decision.until_second,
      })
    },

    /**
     * One encrypted segment. The signature says how far this viewer may go (`lim`); a segment starting at or after
     * it is refused. One query (where the output is), no entitlement lookup: segments are the hot path.
     */
    async segment(
      videoId: number,
      rendition: string,
      name: string,
      params: SignedInput,
    ): Promise<{ stream: Readable; size: number; maxAge: number } | { redirect: string }> {
      const claims = await verify(videoId, params)
      if (!renditionName.test(rendition) || !segmentName.test(name)) throw new AppError(Codes.NotFound, '视频不存在')
      const { hlsPrefix } = await playable(videoId)
      if (claims.lim !== null) {
        const playlistKey = `${hlsPrefix}/${rendition}/index.m3u8`
        let segments = segmentsByPlaylist.get(playlistKey)
        if (!segments) {
          const text = await readText(stores.private, playlistKey)
          if (text === null) throw new AppError(Codes.NotFound, '视频不存在')
          segments = parseMediaPlaylist(text)
          segmentsByPlaylist.set(playlistKey, segments)
        }
        const segment = segments.find((s) => s.uri === name)
        if (!segment) throw new AppError(Codes.NotFound, '视频不存在')
        if (segment.start >= claims.lim) throw new AppError(Codes.Forbidden, '试看已结束，购买课程后可观看完整视频')
      }
      const key = `${hlsPrefix}/${rendition}/${name}`
      const maxAge = Math.max(0, claims.exp - nowSeconds())
      if (deps.segmentRedirect) {
        // Checked exactly as above; the store's URL is for this one segment and dies within two minutes.
        const url = await stores.private.signedUrl(key, Math.min(SEGMENT_URL_TTL_SECONDS, Math.max(1, maxAge)))
        if (url) return { redirect: url }
      }
      const stat = await stores.private.stat(key)
      const stream = stat ? await stores.private.get(key) : null
      if (!stat || !stream) throw new AppError(Codes.NotFound, '视频不存在')
      return { stream, size: stat.size, maxAge }
    },

    /** The 16-byte AES key, to a valid signature whose member may watch the video now. */
    async key(videoId: number, params: SignedInput) {
      const claims = await verify(videoId, params)
      await decide(claims)
      const { keyBytes } = await playable(videoId)
      return keyBytes
    },
  }
}

export type PlaybackService = ReturnType<typeof createPlaybackService>
