import crypto from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import sharp from 'sharp'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '#server/db/database.ts'
import type { Rendition } from '#server/db/schema/media.ts'
import type { MediaStores, Storage } from '#server/integrations/storage/storage.ts'
import { PermanentJobError } from '#server/jobs/worker.ts'
import { probe, run, ToolUnavailable, type ProbeResult } from './ffmpeg.ts'
import { setLessonDuration } from '#server/modules/catalogue/catalogue.service.ts'
import { finishTranscoding, setPlannedRenditions, setProgress, startTranscoding } from './video-media.repository.ts'

/** One rung of the ladder: the short side in pixels, H.264 profile and level, bitrates. */
export interface Rung {
  name: string
  shortSide: number
  profile: 'baseline' | 'main' | 'high'
  level: string
  videoKbps: number
  audioKbps: number
}

/**
 * 360p in H.264 Baseline and 720p in Main, AAC-LC stereo: what WeChat's browser on old Android and iOS decodes.
 * A rung above the source's own size is left out (never upscaled); 360p is always made.
 */
const DEFAULT_LADDER: Rung[] = [
  { name: '360p', shortSide: 360, profile: 'baseline', level: '3.0', videoKbps: 800, audioKbps: 96 },
  { name: '720p', shortSide: 720, profile: 'main', level: '3.1', videoKbps: 2500, audioKbps: 128 },
]

const SEGMENT_SECONDS = 6
/** The key URI ffmpeg writes; the playlist endpoint replaces it with a signed key URL for each viewer. */
const KEY_URI_PLACEHOLDER = 'key://zixue'

export interface TranscodeSettings {
  ffmpegPath: string
  ffprobePath: string
  preset: string
  /** Scratch space for ffmpeg's output before it is stored; on the same disk as the data. */
  workDir: string
  ladder?: Rung[]
}

export interface TranscodeDeps {
  db: Db
  stores: MediaStores
  settings: TranscodeSettings
  now: () => Date
}

const even = (x: number) => Math.max(2, Math.round(x / 2) * 2)

/** The renditions to make for a source: its display size (rotation applied) scaled to each rung it reaches. */
function planRenditions(video: NonNullable<ProbeResult['video']>, ladder: Rung[]) {
  const turned = Math.abs(video.rotation) % 180 === 90
  const w = turned ? video.height : video.width
  const h = turned ? video.width : video.height
  const short = Math.min(w, h)
  const rungs = ladder.filter((r, i) => i === 0 || r.shortSide <= short)
  return rungs.map((r) => {
    const scale = r.shortSide / short
    const size =
      w <= h ? { width: r.shortSide, height: even(h * scale) } : { width: even(w * scale), height: r.shortSide }
    return { ...r, ...size, bandwidth: Math.round((r.videoKbps * 1.07 + r.audioKbps) * 1000) }
  })
}

/** ffmpeg's arguments for HLS in every planned rendition at once, AES-128 encrypted, 6-second segments. */
function hlsArgs(
  input: string,
  outDir: string,
  keyInfoFile: string,
  plan: ReturnType<typeof planRenditions>,
  hasAudio: boolean,
  preset: string,
) {
  const split = `[0:v]split=${plan.length}${plan.map((_, i) => `[s${i}]`).join('')}`
  const scales = plan.map((p, i) => `[s${i}]scale=${p.width}:${p.height},setsar=1[v${i}]`)
  const args = [
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    '-filter_complex',
    [split, ...scales].join(';'),
  ]
  plan.forEach((_, i) => {
    args.push('-map', `[v${i}]`)
    if (hasAudio) args.push('-map', '0:a:0')
  })
  args.push('-c:v', 'libx264', '-preset', preset, '-pix_fmt', 'yuv420p')
  plan.forEach((p, i) => {
    args.push(
      `-profile:v:${i}`,
      p.profile,
      `-level:v:${i}`,
      p.level,
      `-b:v:${i}`,
      `${p.videoKbps}k`,
      `-maxrate:v:${i}`,
      `${Math.round(p.videoKbps * 1.07)}k`,
      `-bufsize:v:${i}`,
      `${Math.round(p.videoKbps * 1.5)}k`,
    )
    if (hasAudio) args.push(`-b:a:${i}`, `${p.audioKbps}k`)
  })
  // A key frame exactly every 6 s makes every segment start where the preview cut expects it.
  args.push('-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`, '-sc_threshold', '0')
  if (hasAudio) args.push('-c:a', 'aac', '-ac', '2')
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_key_info_file',
    keyInfoFile,
    '-hls_segment_filename',
    path.join(outDir, '%v', 'seg_%05d.ts'),
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    plan.map((p, i) => (hasAudio ? `v:${i},a:${i},name:${p.name}` : `v:${i},name:${p.name}`)).join(' '),
    '-progress',
    'pipe:1',
    path.join(outDir, '%v', 'index.m3u8'),
  )
  return args
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(full)
    else yield full
  }
}

/** A poster frame from a tenth into the video (at most 3 s), as WebP at most 1280 px wide. */
async function posterFrame(settings: TranscodeSettings, input: string, duration: number, signal: AbortSignal) {
  const at = Math.min(3, duration * 0.1)
  const { stdout } = await run(
    settings.ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-ss',
      at.toFixed(2),
      '-i',
      input,
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-c:v',
      'png',
      '-',
    ],
    { signal, timeoutMs: 60_000 },
  )
  if (stdout.length === 0) return null
  return sharp(stdout).resize({ width: 1280, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer()
}

export interface EncodedHls {
  /** Folder holding master.m3u8 and one folder per rendition (index.m3u8, seg_NNNNN.ts). */
  outDir: string
  /** The AES-128 key the segments are encrypted with. */
  key: Buffer
  duration: number
  renditions: Rendition[]
  poster: Buffer | null
}

/**
 * Encodes a video file to AES-128 encrypted HLS in `work`/out with a fresh random key, and takes a poster frame.
 * `onPlan` hears the renditions it will make (once the source is probed), `onPercent` the progress ffmpeg reports.
 */
export async function encodeHls(
  settings: TranscodeSettings,
  input: string,
  work: string,
  signal: AbortSignal,
  onPercent?: (percent: number) => void,
  onPlan?: (renditions: Rendition[]) => Promise<void>,
): Promise<EncodedHls> {
  const info = await probe(settings.ffprobePath, input, signal).catch((err: Error) => {
    // A missing tool is the server's problem and may be fixed: only an unreadable file fails for good.
    throw err instanceof ToolUnavailable || signal.aborted ? err : new PermanentJobError(`无法读取视频：${err.message}`)
  })
  if (!info.video) throw new PermanentJobError('文件里没有视频画面')
  const plan = planRenditions(info.video, settings.ladder ?? DEFAULT_LADDER)
  const renditions: Rendition[] = plan.map((p) => ({
    name: p.name,
    width: p.width,
    height: p.height,
    bandwidth: p.bandwidth,
  }))
  await onPlan?.(renditions)

  const key = crypto.randomBytes(16)
  const keyFile = path.join(work, 'video.key')
  await fsp.writeFile(keyFile, key, { mode: 0o600 })
  const keyInfo = path.join(work, 'key.info')
  await fsp.writeFile(keyInfo, `${KEY_URI_PLACEHOLDER}\n${keyFile}\n${crypto.randomBytes(16).toString('hex')}\n`)

  const outDir = path.join(work, 'out')
  await fsp.mkdir(outDir)
  let lastPercent = -1
  await run(settings.ffmpegPath, hlsArgs(input, outDir, keyInfo, plan, info.hasAudio, settings.preset), {
    signal,
    onStdoutLine(line) {
      const m = /^out_time_us=(\d+)$/.exec(line)
      if (!m || info.duration <= 0 || !onPercent) return
      const percent = Math.min(99, Math.floor((Number(m[1]) / 1e6 / info.duration) * 100))
      if (percent !== lastPercent) onPercent((lastPercent = percent))
    },
  })
  // The key must never sit next to the output: it is stored in the database only.
  await fsp.rm(keyFile)
  const poster = await posterFrame(settings, input, info.duration, signal)
  return { outDir, key, duration: info.duration, renditions, poster }
}

/** Copies every file under `dir` into `store` under `prefix`, keeping the relative paths. */
export async function storeFolder(store: Storage, dir: string, prefix: string, signal?: AbortSignal) {
  for await (const file of walk(dir)) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted')
    const relative = path.relative(dir, file).split(path.sep).join('/')
    await store.put(`${prefix}/${relative}`, fs.createReadStream(file))
  }
}

export interface TranscodeResult {
  hlsPrefix: string
  duration: number
  renditions: Rendition[]
}

/**
 * Transcodes a video's uploaded source to encrypted HLS, stores the output under a new prefix in private storage
 * and the poster in public storage, then switches the video over and removes what it replaced. Progress goes to
 * the video's media row (at most once a second).
 */
export async function transcodeVideo(
  deps: TranscodeDeps,
  videoId: number,
  signal: AbortSignal,
  log: FastifyBaseLogger,
): Promise<TranscodeResult | null> {
  const { db, stores, settings, now } = deps
  const started = await startTranscoding(db, videoId, now())
  if (!started) throw new PermanentJobError('没有可转码的源文件')
  const rev = crypto.randomBytes(4).toString('hex')
  const work = path.join(settings.workDir, `transcode-${videoId}-${rev}`)
  await fsp.mkdir(work, { recursive: true })
  const hlsPrefix = `hls/${videoId}/${rev}`
  try {
    let input = stores.private.localPath(started.sourceKey)
    if (!input || !fs.existsSync(input)) {
      const stream = await stores.private.get(started.sourceKey)
      if (!stream) throw new PermanentJobError('源文件不见了，请重新上传')
      input = path.join(work, 'source')
      await pipeline(stream, fs.createWriteStream(input))
    }

    let lastWrite = 0
    let writing: Promise<void> = Promise.resolve()
    const encoded = await encodeHls(
      settings,
      input,
      work,
      signal,
      (percent) => {
        if (Date.now() - lastWrite < 1000) return
        lastWrite = Date.now()
        writing = writing
          .then(() => setProgress(db, videoId, percent, now()))
          .catch((err: unknown) => log.warn({ err }, 'progress not saved'))
      },
      (planned) => setPlannedRenditions(db, videoId, planned, now()),
    )
    await writing

    await storeFolder(stores.private, encoded.outDir, hlsPrefix, signal)
    const posterKey = encoded.poster ? `posters/${videoId}/${rev}.webp` : null
    if (encoded.poster && posterKey) await stores.public.put(posterKey, encoded.poster)

    const replaced = await db.transaction(async (tx) => {
      const before = await finishTranscoding(tx, videoId, started.sourceKey, {
        hlsPrefix,
        keyBytes: encoded.key,
        renditions: encoded.renditions,
        posterKey,
        duration: encoded.duration,
        now: now(),
      })
      if (before) await setLessonDuration(tx, videoId, Math.round(encoded.duration))
      return before
    })
    if (!replaced) {
      // A new upload replaced the source meanwhile; its own job will produce the output.
      await stores.private.deletePrefix(hlsPrefix)
      if (posterKey) await stores.public.delete(posterKey)
      return null
    }
    // Only this video's own folders are removed: demo media shares one output between videos.
    if (replaced.hlsPrefix?.startsWith(`hls/${videoId}/`)) await stores.private.deletePrefix(replaced.hlsPrefix)
    if (replaced.posterKey?.startsWith(`posters/${videoId}/`)) await stores.public.delete(replaced.posterKey)
    return { hlsPrefix, duration: encoded.duration, renditions: encoded.renditions }
  } catch (err) {
    await stores.private.deletePrefix(hlsPrefix).catch(() => {})
    throw err
  } finally {
    await fsp.rm(work, { recursive: true, force: true })
  }
}
