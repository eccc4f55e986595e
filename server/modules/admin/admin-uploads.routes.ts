import { Server } from '@tus/server'
import type { FastifyPluginAsync } from 'fastify'
import { AppError } from '#server/http/app-error.ts'
import { Codes, type CodeEntry } from '#server/http/codes.ts'
import { ok } from '#server/http/envelope.ts'
import type { ResumableStore } from '#server/integrations/storage/resumable.ts'
import type { AdminService } from './admin.service.ts'

export interface AdminUploadRoutesOptions {
  admin: AdminService
  /** Where unfinished uploads collect (server/integrations/storage/resumable.ts). */
  store: ResumableStore
  /** The ceiling of a video file (config.media.uploadMaxBytes). */
  maxBytes: number
}

/** Where the tus endpoint lives (under the /api prefix this plugin is registered with). */
const RESUMABLE_UPLOADS_PATH = '/api/admin/uploads'

/** The envelope as the body of a tus answer, so the console reads a failure the way it reads any other. */
function envelopeBody(entry: CodeEntry, msg: string, data: unknown = {}) {
  return JSON.stringify({ code: entry.code, msg, data })
}

/**
 * What tus answers for an error: our AppErrors keep their code and Chinese message. A tus client reads only the
 * HTTP status, so codes the API answers with 200 (the spec's business codes, such as 471 too large and 472 busy)
 * go out as 422 here; tus's own "too large" (the announced Upload-Length) becomes 471 too.
 */
function tusError(err: Error | { status_code: number; body: string }) {
  const answer = (entry: CodeEntry, msg: string) => ({
    status_code: entry.status >= 400 ? entry.status : 422,
    body: envelopeBody(entry, msg),
  })
  if (err instanceof AppError) return answer(err.entry, err.message)
  if ('status_code' in err && err.status_code === 413) return answer(Codes.VideoTooLarge, Codes.VideoTooLarge.msg)
  return undefined
}

function videoIdOf(metadata: Record<string, string | null> | undefined) {
  const id = Number(metadata?.video_id)
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new AppError(Codes.BadRequest, '上传没有指明是哪个视频，请从课时里重新上传', {
      field: 'video_id',
    })
  return id
}

/**
 * Resumable video uploads for operators (tus 1.0: POST creates an upload, HEAD tells how much arrived, PATCH sends
 * the rest, DELETE abandons it), for files too large to send in one request over a shaky connection. The upload
 * names its video in `Upload-Metadata` (`video_id`, `filename`); when the last byte arrives the file becomes the
 * video's new source through the same door as the one-request upload (checked by its first bytes and ffprobe,
 * transcoding queued), and the last PATCH answers with the media state in the envelope.
 */
export const adminUploadRoutes: FastifyPluginAsync<AdminUploadRoutesOptions> = async (app, opts) => {
  const { admin, store, maxBytes } = opts
  const tus = new Server({
    path: RESUMABLE_UPLOADS_PATH,
    datastore: store,
    maxSize: maxBytes,
    relativeLocation: true,
    async onUploadCreate(_req, upload) {
      const { media } = await admin.video(videoIdOf(upload.metadata))
      if (media.status === 'transcoding') throw new AppError(Codes.VideoBusy)
      return {}
    },
    async onUploadFinish(_req, upload) {
      const videoId = videoIdOf(upload.metadata)
      // The finished bytes are copied into the video's source, or refused (not a video): either way they go.
      const media = await admin
        .uploadVideo(videoId, {
          stream: await store.read(upload.id),
          filename: upload.metadata?.filename ?? `video-${videoId}`,
          truncated: () => false,
        })
        .finally(() => store.remove(upload.id))
      return {
        status_code: 200,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify(ok(media, '上传成功，正在排队转码')),
      }
    },
    onResponseError: (_req, err) => {
      const answer = tusError(err)
      if (!answer && (!('status_code' in err) || err.status_code >= 500))
        app.log.error({ err }, 'resumable upload failed')
      return answer
    },
  })

  // PATCH bodies are the file's bytes: tus reads them from the raw request, so Fastify must leave them unread.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null))
  for (const url of ['/admin/uploads', '/admin/uploads/:uploadId']) {
    app.route({
      method: ['POST', 'HEAD', 'PATCH', 'DELETE'],
      url,
      // Uploading a lesson's video is editing the catalogue (operators; teachers on their own courses later).
      config: { auth: 'staff', permission: 'catalogue.edit' },
      schema: { hide: true },
      handler: async (request, reply) => {
        reply.hijack()
        await tus.handle(request.raw, reply.raw)
      },
    })
  }
}
