import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '#server/config.ts'
import { mediaCacheControl } from './stores.ts'

const s3 = {
  STORAGE: 's3',
  S3_ENDPOINT: 'http://minio:9000',
  S3_BUCKET_PUBLIC: 'zixue-public',
  S3_BUCKET_PRIVATE: 'zixue-private',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_FORCE_PATH_STYLE: 'true',
}

describe('storage settings', () => {
  it('keeps media in the two local folders by default', () => {
    expect(loadConfig({}, '/srv/zixue').storage).toEqual({
      kind: 'local',
      publicDir: '/srv/zixue/data/media',
      privateDir: '/srv/zixue/data/media-private',
    })
  })

  it('reads an S3-compatible store; the app serves the public bucket at /media/ without a CDN address', () => {
    expect(loadConfig(s3).storage).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      presignEndpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      publicBucket: 'zixue-public',
      privateBucket: 'zixue-private',
      publicBase: '/media/',
      servePublic: true,
      segmentRedirect: false,
    })
    expect(
      loadConfig({ ...s3, S3_PUBLIC_URL: 'https://cdn.zixue.example', S3_SEGMENT_REDIRECT: 'true' }).storage,
    ).toMatchObject({ publicBase: 'https://cdn.zixue.example/', servePublic: false, segmentRedirect: true })
  })

  it.each([
    [{ ...s3, S3_BUCKET_PRIVATE: undefined }, 'S3_BUCKET_PRIVATE: required when STORAGE is s3'],
    [{ ...s3, S3_BUCKET_PUBLIC: undefined }, 'S3_BUCKET_PUBLIC: required when STORAGE is s3'],
    [{ ...s3, S3_BUCKET_PRIVATE: 'zixue-public' }, 'S3_BUCKET_PRIVATE: must differ from S3_BUCKET_PUBLIC'],
    [{ ...s3, S3_SECRET_ACCESS_KEY: undefined }, 'S3_SECRET_ACCESS_KEY: set both'],
    [{ ...s3, S3_BUCKET_PUBLIC: 'Bad_Bucket' }, 'S3_BUCKET_PUBLIC: must be a bucket name'],
    [{ S3_SEGMENT_REDIRECT: 'true' }, 'S3_SEGMENT_REDIRECT: needs STORAGE=s3'],
    [{ STORAGE: 'gcs' }, 'STORAGE: '],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(message)
  })
})

describe('how long browsers keep public media', () => {
  it('for good when the name is random and never rewritten; an hour when a name is reused', () => {
    const forGood = 'public, max-age=31536000, immutable'
    expect(mediaCacheControl('uploads/2026/0123456789abcdef0123456789abcdef.webp')).toBe(forGood)
    expect(mediaCacheControl('images/2026/0123456789abcdef0123456789abcdef.webp')).toBe(forGood)
    expect(mediaCacheControl('posters/50001/ab12cd34.webp')).toBe(forGood)
    // The demo's posters and the kept variants keep their names when their content changes.
    expect(mediaCacheControl('posters/demo/lesson-a.webp')).toBe('public, max-age=3600')
    expect(mediaCacheControl('variants/240/demo/courses/ps-zero.webp')).toBe('public, max-age=3600')
  })
})
