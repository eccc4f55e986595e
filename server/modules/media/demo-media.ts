import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '#server/db/database.ts'
import type { Rendition } from '#server/db/schema/media.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { fitLessonsToDemoClip, lessonFreeFlags } from '#server/modules/catalogue/catalogue.service.ts'
import { storeFolder } from './transcode.ts'
import { findVideoIdsWithMedia, insertReadyMedia } from './video-media.repository.ts'

/**
 * The demo's playable media: a few short clips transcoded ahead of time by scripts/make-demo-media.ts and
 * committed (see docs/decisions/2026-11-22-demo-media.md), so a fresh demo plays without ffmpeg.
 */
export const DEMO_MEDIA_DIR = fileURLToPath(new URL('../../db/demo-media', import.meta.url))

export interface DemoClip {
  name: string
  title: string
  duration: number
  /** Hex of the AES-128 key its segments are encrypted with (a demo key: it is public in the repository). */
  key: string
  renditions: Rendition[]
  /** Which demo videos play it: the free lessons (long enough to leave and resume), previews, or the rest. */
  use: 'free' | 'preview' | 'other'
}

export interface DemoManifest {
  clips: DemoClip[]
}

export function readDemoManifest(dir = DEMO_MEDIA_DIR): DemoManifest | null {
  const file = path.join(dir, 'manifest.json')
  if (!fs.existsSync(file)) return null
  return JSON.parse(fs.readFileSync(file, 'utf8')) as DemoManifest
}

/**
 * Gives every video that has no media yet one of the demo clips (free lessons the long one, preview videos a
 * short one whose preview ends halfway, the rest another), with its real duration. Clips are copied to storage
 * once and shared. Call it right after seeding demo content; it never touches a video that has media.
 */
export async function attachDemoMedia(
  db: Db,
  storage: MediaStores,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  dir = DEMO_MEDIA_DIR,
) {
  const manifest = readDemoManifest(dir)
  if (!manifest || manifest.clips.length === 0) {
    log.warn('demo media: no clips found (run scripts/make-demo-media.ts); videos stay without media')
    return 0
  }
  const lessons = await lessonFreeFlags(db)
  const withMedia = await findVideoIdsWithMedia(
    db,
    lessons.map((v) => v.id),
  )
  const targets = lessons.filter((v) => !withMedia.has(v.id))
  if (targets.length === 0) return 0

  const byUse = new Map(manifest.clips.map((c) => [c.use, c]))
  const fallback = manifest.clips[0]!
  const clipFor = (v: (typeof targets)[number]) =>
    (v.courseFree || v.videoFree ? byUse.get('free') : v.freeSeconds > 0 ? byUse.get('preview') : byUse.get('other')) ??
    fallback

  for (const clip of manifest.clips) {
    const prefix = `hls/demo/${clip.name}`
    if (!(await storage.private.stat(`${prefix}/master.m3u8`))) {
      await storeFolder(storage.private, path.join(dir, clip.name, 'hls'), prefix)
    }
    const posterKey = `posters/demo/${clip.name}.webp`
    if (!(await storage.public.stat(posterKey)))
      await storage.public.put(posterKey, fs.readFileSync(path.join(dir, clip.name, 'poster.webp')))
  }

  const now = new Date()
  await db.transaction(async (tx) => {
    for (const clip of manifest.clips) {
      const ids = targets.filter((v) => clipFor(v) === clip).map((v) => v.id)
      if (ids.length === 0) continue
      await insertReadyMedia(
        tx,
        ids.map((videoId) => ({
          videoId,
          hlsPrefix: `hls/demo/${clip.name}`,
          keyBytes: Buffer.from(clip.key, 'hex'),
          renditions: clip.renditions,
          posterKey: `posters/demo/${clip.name}.webp`,
          duration: clip.duration,
          now,
        })),
      )
      // The catalogue's made-up lengths give way to the clip's real one, and a preview ends halfway through it,
      // so the end of a preview can be seen in a few seconds.
      await fitLessonsToDemoClip(tx, ids, clip.duration)
    }
  })
  log.info(`demo media: ${targets.length} videos now play one of ${manifest.clips.length} demo clips`)
  return targets.length
}
