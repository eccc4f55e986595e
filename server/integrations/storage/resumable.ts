import { FileStore } from '@tus/file-store'
import type { Readable } from 'node:stream'
import type { FastifyBaseLogger } from 'fastify'
import { every } from '#server/jobs/every.ts'
import type { DataStore } from '@tus/utils'
import type { StorageConfig } from './stores.ts'

/** Unfinished uploads older than this are removed by the cleanup (resumable within a day). */
export const RESUMABLE_UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000

/** A tus data store that can also read back a finished upload (both stores used here can). */
export type ResumableStore = DataStore & { read(id: string): Readable | Promise<Readable> }

/**
 * Where resumable (tus) uploads collect their bytes before they become a video's source
 * (docs/decisions/2026-11-25-resumable-uploads.md). Local storage: a scratch folder on this machine. Object
 * storage: a multipart upload in the private bucket (objects `<upload id>` and `<upload id>.info` at its root),
 * so every instance can take the next PATCH of an upload. Parts are 8 MiB (S3's minimum is 5 MiB).
 *
 * Not confirmed against Aliyun OSS or Tencent COS: @tus/s3-store keeps the upload's metadata in the `.info`
 * object's user metadata (x-amz-meta-*); both document S3-compatible user metadata, tested here with s3rver only.
 *
 * @tus/s3-store and the AWS SDK are loaded with object storage only, as in createMediaStores (stores.ts).
 */
export async function createResumableStore(config: StorageConfig, scratchDir: string): Promise<ResumableStore> {
  if (config.kind === 'local') {
    return new FileStore({ directory: scratchDir, expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_EXPIRY_MS })
  }
  const [{ S3Store }, { s3ClientConfig }] = await Promise.all([import('@tus/s3-store'), import('./s3.ts')])
  return new S3Store({
    partSize: 8 * 1024 * 1024,
    expirationPeriodInMilliseconds: RESUMABLE_UPLOAD_EXPIRY_MS,
    s3ClientConfig: { bucket: config.privateBucket, ...s3ClientConfig(config) },
  })
}

/**
 * Removes uploads left unfinished for longer than RESUMABLE_UPLOAD_EXPIRY_MS (their bytes and their `.info`), every
 * hour in this process (server/main.ts). Any number of processes may run it: removing twice is harmless.
 */
export function startResumableUploadCleanup(store: ResumableStore, log: FastifyBaseLogger, intervalMs = 60 * 60_000) {
  return every(
    intervalMs,
    async () => {
      const removed = await store.deleteExpired()
      if (removed > 0) log.info({ removed }, 'expired resumable uploads removed')
    },
    (err) => log.error({ err }, 'resumable upload cleanup failed'),
  )
}
