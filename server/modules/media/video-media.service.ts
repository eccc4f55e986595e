import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import type { Db } from '#server/db/database.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { lessonAccessFacts } from '#server/modules/catalogue/catalogue.service.ts'
import { enqueueJob, type JobKind } from '#server/jobs/worker.ts'
import { probe, ToolUnavailable } from './ffmpeg.ts'
import { peek, SNIFF_BYTES, sniffVideo } from './sniff.ts'
import { transcodeVideo, type TranscodeSettings } from './transcode.ts'
import {
  findVideoMedia,
  markFailed,
  markQueued,
  markWaiting,
  recordUpload,
  type VideoMediaRow,
} from './video-media.repository.ts'

export const TRANSCODE_JOB = 'transcode'

export interface VideoMediaDeps {
  db: Db
  stores: MediaStores
  settings: TranscodeSettings & { uploadMaxBytes: number }
  now: () => Date
}

/** The operator's view of a video's media (GET /api/admin/videos/:id). */
export function mediaView(videoId: number, row: VideoMediaRow | null, stores: MediaStores) {
  return {
    video_id: videoId,
    status: row?.status ?? ('none' as const),
    progress: row?.progress ?? 0,
    error: row?.error ?? null,
    playable: Boolean(row?.hlsPrefix),
    duration: row?.duration ?? null,
    source_name: row?.sourceName ?? null,
    source_bytes: row?.sourceBytes ?? null,
    renditions: row?.renditions ?? [],
    // Each rendition of the running transcoding with its progress (one ffmpeg pass: they advance together).
    rendition_progress:
      row && (row.status === 'transcoding' || row.status === 'ready')
        ? row.plannedRenditions.map((r) => ({ name: r.name, height: r.height, percent: row.progress }))
        : [],
    poster_url: row?.posterKey ? stores.public.url(row.posterKey) : null,
    updated_at: row?.updatedAt.toISOString() ?? null,
    ready_at: row?.readyAt?.toISOString() ?? null,
  }
}

export type MediaView = ReturnType<typeof mediaView>

export interface UploadedFile {
  stream: Readable
  filename: string
  /** True when the upload went over the size limit and the stream was cut. */
  truncated: () => boolean
}

function sizeLabel(bytes: number) {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`
  return `${Math.round(bytes / 1024)} KB`
}

export function createVideoMediaService(deps: VideoMediaDeps) {
  const { db, stores, settings, now } = deps

  async function videoOrThrow(videoId: number) {
    const [lessons, media] = await Promise.all([lessonAccessFacts(db, [videoId]), findVideoMedia(db, videoId)])
    if (!lessons.has(videoId)) throw new AppError(Codes.NotFound, `视频 ${videoId} 不存在`, { field: 'video_id' })
    return { media }
  }

  /** Hides scratch paths of this machine in messages operators see. */
  const clean = (message: string) => message.replaceAll(settings.workDir, '…').slice(0, 500)

  async function status(videoId: number) {
    const row = await videoOrThrow(videoId)
    return mediaView(videoId, row.media, stores)
  }

  return {
    /** The media state of a video; NotFound when the video does not exist. */
    status,

    /**
     * Stores an uploaded video file as the video's new source and queues its transcoding. The file streams straight
     * to private storage (never held in memory); its type is checked by its first bytes and then by ffprobe, which
     * must find a video stream. A video being transcoded right now is VideoBusy.
     */
    async upload(videoId: number, file: UploadedFile) {
      const existing = await videoOrThrow(videoId)
      if (existing.media?.status === 'transcoding') {
        file.stream.resume()
        throw new AppError(Codes.VideoBusy)
      }
      const { head, stream } = await peek(file.stream, SNIFF_BYTES)
      const kind = sniffVideo(head)
      if (!kind) {
        stream.resume()
        throw new AppError(Codes.VideoInvalid)
      }
      const sourceKey = `sources/${videoId}/${crypto.randomBytes(8).toString('hex')}.${kind.ext}`
      const { size } = await stores.private.put(sourceKey, stream)
      const discard = () => stores.private.delete(sourceKey)
      if (file.truncated()) {
        await discard()
        throw new AppError(Codes.VideoTooLarge, `视频文件不能超过 ${sizeLabel(settings.uploadMaxBytes)}`)
      }
      // ffprobe reads the stored file in place (a store without local files leaves the check to the transcoder).
      const local = stores.private.localPath(sourceKey)
      if (local) {
        const unreadable = new AppError(
          Codes.VideoInvalid,
          '文件无法解析为视频（没有找到视频画面），请检查文件后重新上传',
        )
        let hasVideo: boolean
        try {
          hasVideo = (await probe(settings.ffprobePath, local)).video !== null
        } catch (err) {
          await discard()
          if (err instanceof ToolUnavailable)
            throw new AppError(Codes.Unavailable, '服务器暂时不能处理视频（缺少 ffmpeg），请联系技术人员')
          throw unreadable
        }
        if (!hasVideo) {
          await discard()
          throw unreadable
        }
      }

      const recorded = await db.transaction(async (tx) => {
        const result = await recordUpload(tx, {
          videoId,
          sourceKey,
          sourceName: file.filename.slice(0, 200),
          sourceBytes: size,
          now: now(),
        })
        if (result !== 'busy') {
          await enqueueJob(tx, {
            kind: TRANSCODE_JOB,
            payload: { video_id: videoId },
            singletonKey: `transcode:${videoId}`,
          })
        }
        return result
      })
      if (recorded === 'busy') {
        await discard()
        throw new AppError(Codes.VideoBusy)
      }
      if (recorded.previousSource) await stores.private.delete(recorded.previousSource)
      return status(videoId)
    },

    /** Queues the transcoding of the current source again (after a failure, or for a new ladder). */
    async retranscode(videoId: number) {
      const row = await videoOrThrow(videoId)
      if (!row.media?.sourceKey) throw new AppError(Codes.Conflict, '这个视频还没有上传文件')
      const queued = await db.transaction(async (tx) => {
        if (!(await markQueued(tx, videoId, now()))) return false
        await enqueueJob(tx, {
          kind: TRANSCODE_JOB,
          payload: { video_id: videoId },
          singletonKey: `transcode:${videoId}`,
        })
        return true
      })
      if (!queued) throw new AppError(Codes.VideoBusy)
      return status(videoId)
    },

    /** The queue's transcoding job: its state shows on the video while it runs, and a final failure with its reason. */
    transcodeJob: {
      async run(payload, ctx) {
        const videoId = Number(payload.video_id)
        try {
          await transcodeVideo({ db, stores, settings, now }, videoId, ctx.signal, ctx.log)
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err)
          await markWaiting(db, videoId, ctx.signal.aborted ? null : clean(message), now())
          throw err
        }
      },
      async onFailed(payload, error) {
        await markFailed(db, Number(payload.video_id), `转码失败：${clean(error)}`, now())
      },
    } satisfies JobKind,
  }
}

/** Transcodes that failed, newest first, and how many (operators' dashboard). */
export { failedTranscodes } from './figures.repository.ts'
