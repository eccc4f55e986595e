import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import { apiPlugin } from '#server/http/route.ts'
import type { PlaybackService } from './playback.service.ts'
import {
  KeyQuery,
  MasterParams,
  PlayQuery,
  PlayResponse,
  SegmentParams,
  SignedQuery,
  VariantParams,
} from './playback.schema.ts'

const docs = { tags: ['playback'], token: false }
const M3U8 = 'application/vnd.apple.mpegurl'

/** Sends what only this viewer may read (a key, a playlist signed for them): never kept by a cache. */
function sendPrivate(reply: FastifyReply, type: string, body: unknown) {
  return reply.type(type).header('cache-control', 'private, no-store').send(body)
}

/** GET /api/video/play and GET /api/video/key (under /api). */
export const playbackApiRoutes = apiPlugin(docs, (r, { playback }: { playback: PlaybackService }) => {
  r.get(
    '/video/play',
    {
      summary: 'A signed HLS URL to play a video, for the member (ZXB-Token) or an anonymous visitor',
      description:
        'until_second says where the free preview ends (null: no limit). 474 NoWatchAccess when nothing may be played, 473 VideoNotReady while transcoding, 404 for an unknown video.',
      querystring: PlayQuery,
      response: PlayResponse,
    },
    async (request, memberId) => playback.play(memberId, request.query.vid),
  )

  r.raw.get(
    '/video/key',
    {
      summary: 'The AES-128 key of a video (the key URI inside its playlists)',
      description:
        'Answers the 16 key bytes only to a valid, unexpired signature whose member may watch the video now; otherwise 403.',
      querystring: KeyQuery,
      response: { 200: z.unknown().describe('16 bytes, application/octet-stream') },
    },
    async (request, reply) => {
      const { vid, ...signed } = request.query
      return sendPrivate(reply, 'application/octet-stream', await playback.key(vid, signed))
    },
  )
})

/**
 * The HLS files, at /media/hls/ (next to the static /media/ folder, which never holds them): playlists rewritten
 * per viewer with signed URLs, and encrypted segments.
 */
export const hlsRoutes = apiPlugin(docs, (r, { playback }: { playback: PlaybackService }) => {
  const playlist = { 200: z.string().describe(`HLS playlist (${M3U8})`) }

  r.raw.get(
    '/media/hls/:videoId/master.m3u8',
    {
      summary: 'Master playlist (signed URL from GET /api/video/play)',
      params: MasterParams,
      querystring: SignedQuery,
      response: playlist,
    },
    async ({ params, query }, reply) => sendPrivate(reply, M3U8, await playback.master(params.videoId, query)),
  )

  r.raw.get(
    '/media/hls/:videoId/:rendition/index.m3u8',
    {
      summary: 'Rendition playlist, cut at the preview end for members without access',
      params: VariantParams,
      querystring: SignedQuery,
      response: playlist,
    },
    async ({ params, query }, reply) =>
      sendPrivate(reply, M3U8, await playback.variant(params.videoId, params.rendition, query)),
  )

  r.raw.get(
    '/media/hls/:videoId/:rendition/:segment',
    {
      summary: 'One AES-128 encrypted MPEG-TS segment (or, with S3_SEGMENT_REDIRECT, a 302 to a presigned URL of it)',
      params: SegmentParams,
      querystring: SignedQuery,
      response: { 200: z.unknown().describe('video/mp2t, AES-128 encrypted') },
    },
    async (request, reply) => {
      const { videoId, rendition, segment } = request.params
      const result = await playback.segment(videoId, rendition, segment, request.query)
      if ('redirect' in result) return reply.header('cache-control', 'private, no-store').redirect(result.redirect, 302)
      return reply
        .type('video/mp2t')
        .header('content-length', result.size)
        .header('cache-control', `private, max-age=${result.maxAge}`)
        .send(result.stream)
    },
  )
})
