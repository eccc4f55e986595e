import type { Readable } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { assertKey, contentTypeOf, type Storage } from './storage.ts'

export interface S3StorageOptions {
  client: S3Client
  /** The client whose endpoint browsers reach, for presigned URLs (a public address of the store); default `client`. */
  presignClient?: S3Client
  bucket: string
  /** Where browsers read objects: `/media/` (served by the app), a CDN or bucket URL; null for a private store. */
  publicBase: string | null
  /** The Cache-Control the store sends with an object (kept by the store and any CDN in front of it). */
  cacheControl?: (key: string) => string | undefined
  /** Size of one part of a multipart upload (at least 5 MiB on S3); smaller streams are one PutObject. */
  partBytes?: number
}

export interface S3ClientSettings {
  /** Empty: AWS S3 of the region. MinIO, Aliyun OSS or Tencent COS: their S3-compatible endpoint. */
  endpoint?: string
  region: string
  forcePathStyle: boolean
  /** Empty: the SDK's default chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/**
 * The settings every S3 client here is made with (the adapters' and the resumable uploads' store). Checksums only
 * where the API requires them: since 2025 the SDK otherwise sends CRC32 trailers in aws-chunked bodies, which
 * several S3-compatible stores (and s3rver) do not read.
 */
export function s3ClientConfig(settings: S3ClientSettings): S3ClientConfig {
  return {
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }
}

/** An S3 client as every adapter here uses it. */
export function createS3Client(settings: S3ClientSettings) {
  return new S3Client({ ...s3ClientConfig(settings), maxAttempts: 3 })
}

/**
 * What a bucket says of its versioning (backups note it): `enabled`, `suspended`, `off` (never turned on), or
 * `unknown (…)` when the store does not answer the call (some S3-compatible stores do not implement it).
 */
export async function versioningOf(client: S3Client, bucket: string): Promise<string> {
  try {
    const { Status } = await client.send(new GetBucketVersioningCommand({ Bucket: bucket }))
    return Status === 'Enabled' ? 'enabled' : Status === 'Suspended' ? 'suspended' : 'off'
  } catch (err) {
    return `unknown (${err instanceof Error ? err.name : String(err)})`
  }
}

const MIN_PART_BYTES = 5 * 1024 * 1024
const DELETE_BATCH = 1000

/** A missing object (404), as opposed to a missing bucket or any other failure, which are thrown. */
function isMissing(err: unknown) {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
  if (e.name === 'NoSuchBucket') return false
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404
}

/** Cuts a stream into buffers of exactly `size` bytes (the last one shorter), holding one part in memory. */
async function* parts(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = []
  let length = 0
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    pending.push(buf)
    length += buf.length
    while (length >= size) {
      const all = Buffer.concat(pending)
      yield all.subarray(0, size)
      pending = [all.subarray(size)]
      length = all.length - size
    }
  }
  if (length > 0 || pending.length === 0) yield Buffer.concat(pending)
}

/**
 * A storage in an S3-compatible bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS). Objects become visible only when
 * written whole: a stream goes up as one PutObject or, when larger than one part, as a multipart upload that is
 * aborted if the stream fails. Private buckets stay private: readers get the app's signed URLs or a presigned URL.
 */
export function s3Storage(options: S3StorageOptions): Storage {
  const { client, bucket } = options
  const presignClient = options.presignClient ?? client
  const partBytes = Math.max(options.partBytes ?? 8 * 1024 * 1024, MIN_PART_BYTES)

  async function multipart(key: string, head: Buffer, rest: AsyncGenerator<Buffer>, meta: object) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...meta }))
    if (!UploadId) throw new Error(`S3 gave no upload id for ${key}`)
    const done: { ETag: string; PartNumber: number }[] = []
    let size = 0
    try {
      const upload = async (body: Buffer) => {
        const PartNumber = done.length + 1
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body }),
        )
        done.push({ ETag: ETag ?? '', PartNumber })
        size += body.length
      }
      await upload(head)
      for await (const part of rest) await upload(part)
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }),
      )
      return size
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => {})
      throw err
    }
  }

  async function deleteEach(keys: string[]) {
    for (let i = 0; i < keys.length; i += 16) {
      await Promise.all(
        keys.slice(i, i + 16).map((Key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))),
      )
    }
  }

  return {
    async put(key, data, putOptions) {
      assertKey(key)
      const meta = {
        ContentType: putOptions?.contentType ?? contentTypeOf(key),
        CacheControl: options.cacheControl?.(key),
      }
      if (Buffer.isBuffer(data)) {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data, ...meta }))
        return { size: data.length }
      }
      const chunks = parts(data, partBytes)
      const first = await chunks.next()
      const head = first.done ? Buffer.alloc(0) : first.value
      const second = first.done ? first : await chunks.next()
      if (second.done) {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: head, ...meta }))
        return { size: head.length }
      }
      async function* remaining() {
        yield second.value as Buffer
        yield* chunks
      }
      return { size: await multipart(key, head, remaining(), meta) }
    },

    async get(key) {
      assertKey(key)
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
        return (out.Body as Readable | undefined) ?? null
      } catch (err) {
        if (isMissing(err)) return null
        throw err
      }
    },

    async stat(key) {
      assertKey(key)
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
        return { size: out.ContentLength ?? 0, modifiedAt: out.LastModified ?? new Date(0) }
      } catch (err) {
        if (isMissing(err)) return null
        throw err
      }
    },

    async delete(key) {
      assertKey(key)
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))
    },

    async deletePrefix(prefix) {
      const clean = prefix.replace(/\/$/, '')
      assertKey(clean)
      let token: string | undefined
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: `${clean}/`,
            ContinuationToken: token,
            MaxKeys: DELETE_BATCH,
          }),
        )
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []))
        if (keys.length > 0) {
          try {
            const out = await client.send(
              new DeleteObjectsCommand({
                Bucket: bucket,
                Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
              }),
            )
            if (out.Errors?.length) await deleteEach(out.Errors.flatMap((e) => (e.Key ? [e.Key] : [])))
          } catch {
            // Some S3-compatible stores want a Content-MD5 on batch deletes that the SDK no longer sends: one by one.
            await deleteEach(keys)
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
    },

    url(key) {
      assertKey(key)
      if (options.publicBase === null) throw new Error('a private store has no public URLs')
      return `${options.publicBase}${key}`
    },

    localPath(key) {
      assertKey(key)
      return null
    },

    async signedUrl(key, ttlSeconds) {
      assertKey(key)
      return getSignedUrl(presignClient, new GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn: Math.max(1, Math.floor(ttlSeconds)),
      })
    },
  }
}
