import { z } from 'zod'
import { localStorage } from './local.ts'
import type { MediaStores } from './storage.ts'

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')
const bucket = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3–63 lowercase letters, digits, dots, dashes)')
  .optional()

/** The storage variables of the environment (server/config.ts spreads them into its schema). */
export const storageEnv = {
  /** local: MEDIA_DIR and MEDIA_PRIVATE_DIR on this machine; s3: two buckets of an S3-compatible store. */
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET_PUBLIC: bucket,
  S3_BUCKET_PRIVATE: bucket,
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Where browsers read the public bucket (a CDN); unset: the app serves it at /media/. */
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The store's address as browsers reach it, for presigned URLs (S3_SEGMENT_REDIRECT); default S3_ENDPOINT. */
  S3_PRESIGN_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** Answer HLS segments with a redirect to a short-lived presigned URL instead of streaming them through the app. */
  S3_SEGMENT_REDIRECT: bool.default(false),
}

type StorageEnv = z.output<z.ZodObject<typeof storageEnv>>

export type StorageConfig =
  | { kind: 'local'; publicDir: string; privateDir: string }
  | {
      kind: 's3'
      endpoint: string | undefined
      presignEndpoint: string | undefined
      region: string
      forcePathStyle: boolean
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined
      publicBucket: string
      privateBucket: string
      /** Base URL of public objects: the CDN's, or /media/ (served by the app from the bucket). */
      publicBase: string
      /** True when the app serves /media/ from the public bucket itself (no S3_PUBLIC_URL). */
      servePublic: boolean
      segmentRedirect: boolean
    }

/** The storage settings, and what is wrong with them (each line names a variable). */
export function storageConfig(e: StorageEnv, dirs: { publicDir: string; privateDir: string }) {
  const problems: string[] = []
  if (e.STORAGE === 'local') {
    if (e.S3_SEGMENT_REDIRECT) problems.push('  S3_SEGMENT_REDIRECT: needs STORAGE=s3')
    return { config: { kind: 'local', ...dirs } as StorageConfig, problems }
  }
  if (!e.S3_BUCKET_PUBLIC) problems.push('  S3_BUCKET_PUBLIC: required when STORAGE is s3')
  if (!e.S3_BUCKET_PRIVATE) problems.push('  S3_BUCKET_PRIVATE: required when STORAGE is s3')
  if (e.S3_BUCKET_PUBLIC && e.S3_BUCKET_PUBLIC === e.S3_BUCKET_PRIVATE)
    problems.push('  S3_BUCKET_PRIVATE: must differ from S3_BUCKET_PUBLIC (the private one is never readable)')
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    problems.push('  S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither')
  const publicUrl = e.S3_PUBLIC_URL?.replace(/\/?$/, '/')
  return {
    config: {
      kind: 's3',
      endpoint: e.S3_ENDPOINT,
      presignEndpoint: e.S3_PRESIGN_ENDPOINT,
      region: e.S3_REGION,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      credentials:
        e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
          : undefined,
      publicBucket: e.S3_BUCKET_PUBLIC ?? '',
      privateBucket: e.S3_BUCKET_PRIVATE ?? '',
      publicBase: publicUrl ?? '/media/',
      servePublic: !publicUrl,
      segmentRedirect: e.S3_SEGMENT_REDIRECT,
    } as StorageConfig,
    problems,
  }
}

/**
 * Members' uploads and operators' images get random names, and a transcoded lesson's poster a new random revision
 * each time (`posters/<video id>/<rev>.webp`): never rewritten, so browsers and CDNs may keep them for good. The
 * rest (the demo's posters, kept variants) keeps its name when it changes, so it is kept an hour.
 */
export function mediaCacheControl(key: string) {
  return /^(?:uploads|images)\/|^posters\/\d+\//.test(key)
    ? 'public, max-age=31536000, immutable'
    : 'public, max-age=3600'
}

type S3Config = Extract<StorageConfig, { kind: 's3' }>

const clientSettings = (config: S3Config) => ({
  endpoint: config.endpoint,
  region: config.region,
  forcePathStyle: config.forcePathStyle,
  credentials: config.credentials,
})

/** Each bucket's versioning (versioningOf), by bucket name; null with local folders. */
export async function bucketVersioning(config: StorageConfig): Promise<Record<string, string> | null> {
  if (config.kind === 'local') return null
  const { createS3Client, versioningOf } = await import('./s3.ts')
  const client = createS3Client(clientSettings(config))
  try {
    const buckets = [config.publicBucket, config.privateBucket]
    return Object.fromEntries(await Promise.all(buckets.map(async (b) => [b, await versioningOf(client, b)] as const)))
  } finally {
    client.destroy()
  }
}

/**
 * The public and private stores the configuration names. s3.ts is loaded with STORAGE=s3 only (rule
 * `s3-loads-when-used`): with @tus/s3-store, the AWS SDK would otherwise stay in the heap of every process on local
 * folders, and every full collection would walk it (4.2 MB of heap after start, measured).
 */
export async function createMediaStores(config: StorageConfig): Promise<MediaStores> {
  if (config.kind === 'local') {
    return {
      public: localStorage({ root: config.publicDir, publicPrefix: '/media/' }),
      private: localStorage({ root: config.privateDir, publicPrefix: null }),
    }
  }
  const { createS3Client, s3Storage } = await import('./s3.ts')
  const settings = clientSettings(config)
  const client = createS3Client(settings)
  const presignClient = config.presignEndpoint
    ? createS3Client({ ...settings, endpoint: config.presignEndpoint })
    : client
  return {
    public: s3Storage({
      client,
      bucket: config.publicBucket,
      publicBase: config.publicBase,
      cacheControl: mediaCacheControl,
    }),
    private: s3Storage({
      client,
      presignClient,
      bucket: config.privateBucket,
      publicBase: null,
      cacheControl: () => 'private, no-store',
    }),
  }
}
