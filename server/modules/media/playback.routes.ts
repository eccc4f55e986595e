import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { apiRoutes } from '#server/http/route.ts'
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

const tags = ['playback']
const M3U8 = 'application/vnd.apple.mpegurl'

interface PlaybackRoutesOptions {
  playback: PlaybackService
}

/** GET /api/video/play and GET /api/video/key (under /api). */
export async function playbackApiRoutes(app: FastifyInstance, opts: PlaybackRoutesOptions) {
  const { playback } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const api = apiRoutes(app, { tags, token: false })

  api.get(
    '/video/play',
    {
      summary: 'A signed HLS URL to play a video, for the member (ZXB-Token) or an anonymous visitor',
      description:
        'until_second says where the free preview ends (null: no limit). 474 NoWatchAccess when nothing may be played, 473 VideoNotReady while transcoding, 404 for an unknown video.',
      querystring: PlayQuery,
      response: PlayResponse,
    },
    async (request) => playback.play(request.principal?.memberId ?? null, request.query.vid),
  )

  r.get(
    '/video/key',
    {
      schema: {
        tags,
        summary: 'The AES-128 key of a video (the key URI inside its playlists)',
        description:
          'Answers the 16 key bytes only to a valid, unexpired signature whose member may watch the video now; otherwise 403.',
        querystring: KeyQuery,
        response: { 200: z.unknown().describe('16 bytes, application/octet-stream') },
      },
    },
    async (request, reply) => {
      const { vid, ...signed } = request.query
      const key = await playback.key(vid, signed)
      return reply.type('application/octet-stream').header('cache-control', 'private, no-store').send(key)
    },
  )
}

/**
 * The HLS files, at /media/hls/ (next to the static /media/ folder, which never holds them): playlists rewritten
 * per viewer with signed URLs, and encrypted segments.
 */
export async function hlsRoutes(app: FastifyInstance, opts: PlaybackRoutesOptions) {
  const { playback } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const playlist = z.string().describe(`HLS playlist (${M3U8})`)

  r.get(
    '/media/hls/:videoId/master.m3u8',
    {
      schema: {
        tags,
        summary: 'Master playlist (signed URL from GET /api/video/play)',
        params: MasterParams,
        querystring: SignedQuery,
        response: { 200: playlist },
      },
    },
    async (request, reply) => {
      const text = await playback.master(request.params.videoId, request.query)
      return reply.type(M3U8).header('cache-control', 'private, no-store').send(text)
    },
  )

  r.get(
    '/media/hls/:videoId/:rendition/index.m3u8',
    {
      schema: {
        tags,
        summary: 'Rendition playlist, cut at the preview end for members without access',
        params: VariantParams,
        querystring: SignedQuery,
        response: { 200: playlist },
      },
    },
    async (request, reply) => {
      const text = await playback.variant(request.params.videoId, request.params.rendition, request.query)
      return reply.type(M3U8).header('cache-control', 'private, no-store').send(text)
    },
  )

  r.get(
    '/media/hls/:videoId/:rendition/:segment',
    {
      schema: {
        tags,
        summary: 'One AES-128 encrypted MPEG-TS segment (or, with S3_SEGMENT_REDIRECT, a 302 to a presigned URL of it)',
        params: SegmentParams,
        querystring: SignedQuery,
        response: { 200: z.unknown().describe('video/mp2t, AES-128 encrypted') },
      },
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
}
