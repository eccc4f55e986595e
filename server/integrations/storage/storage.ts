import type { Readable } from 'node:stream'

interface StoredObject {
  size: number
  modifiedAt: Date
}

interface PutOptions {
  /** The MIME type readers get (`image/webp`); a local folder leaves it to the file's extension. */
  contentType?: string
}

/**
 * Where files live, addressed by key (`hls/50001/ab12/360p/seg_00000.ts`, `uploads/2026/….webp`): video
 * pipeline output, posters and uploaded images alike. Two adapters: a local folder (local.ts, the default) and an
 * S3-compatible object store (s3.ts: AWS S3, Aliyun OSS, Tencent COS, MinIO), chosen by STORAGE (stores.ts).
 */
export interface Storage {
  /** Writes the whole stream (or buffer) under `key`, replacing what was there; readers never see half a file. */
  put(key: string, data: Readable | Buffer, options?: PutOptions): Promise<{ size: number }>
  /** The object's bytes as a stream, or null when there is none. */
  get(key: string): Promise<Readable | null>
  stat(key: string): Promise<StoredObject | null>
  /** Removes one object; removing a missing one is not an error. */
  delete(key: string): Promise<void>
  /** Removes every object under a folder-like prefix (`hls/50001/ab12/`). */
  deletePrefix(prefix: string): Promise<void>
  /** The public URL of an object, for stores served to browsers; a private store throws. */
  url(key: string): string
  /** The object as a file on this machine when the store has one (ffmpeg reads it in place), else null. */
  localPath(key: string): string | null
  /**
   * A URL that lets whoever holds it read this one object for `ttlSeconds`, for a private object store (a
   * presigned GET); null when the store has no such URLs (a local folder: the app streams the file itself).
   */
  signedUrl(key: string, ttlSeconds: number): Promise<string | null>
}

/** The two stores: public (served at /media/: posters, images) and private (video sources, HLS; signed access). */
export interface MediaStores {
  public: Storage
  private: Storage
}

const keyPattern = /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*$/

/** Keys are relative, slash-separated, without `..` or empty parts; anything else is a programming error. */
export function assertKey(key: string) {
  if (key.length > 500 || !keyPattern.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`invalid storage key: ${JSON.stringify(key)}`)
  }
}

/** Reads a small object (a playlist) as UTF-8 text, or null when it does not exist. */
export async function readText(storage: Storage, key: string): Promise<string | null> {
  const stream = await storage.get(key)
  if (!stream) return null
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

const contentTypes: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
}

/** The MIME type a store without file names keeps for a key, from its extension (binary when unknown). */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase()
  return contentTypes[ext] ?? 'application/octet-stream'
}
