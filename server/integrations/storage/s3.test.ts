import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { S3_PRIVATE_BUCKET, S3_PUBLIC_BUCKET, startTestS3, type TestS3 } from '#tests/support/s3.ts'
import { createS3Client, s3Storage, versioningOf } from './s3.ts'
import { readText, type Storage } from './storage.ts'

let s3: TestS3
let client: ReturnType<typeof createS3Client>
let store: Storage
let vault: Storage
const commands: string[] = []

beforeAll(async () => {
  s3 = await startTestS3()
  client = createS3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(String(context.commandName))
      return next(args)
    },
    { step: 'initialize' },
  )
  store = s3Storage({ client, bucket: S3_PUBLIC_BUCKET, publicBase: 'https://cdn.zixue.test/', partBytes: 5 << 20 })
  vault = s3Storage({ client, bucket: S3_PRIVATE_BUCKET, publicBase: null, partBytes: 5 << 20 })
})
afterAll(async () => {
  client.destroy()
  await s3.stop()
})

const keysIn = async (bucket: string, prefix = '') =>
  ((await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key)

describe('S3 storage (against s3rver)', () => {
  it('writes a stream or a buffer, reads it back, tells its size and keeps its content type', async () => {
    expect(await store.put('a/b/one.txt', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({
      size: 11,
    })
    expect(await readText(store, 'a/b/one.txt')).toBe('hello world')
    await store.put('a/b/one.txt', Buffer.from('replaced'))
    expect(await readText(store, 'a/b/one.txt')).toBe('replaced')
    expect(await store.stat('a/b/one.txt')).toMatchObject({ size: 8, modifiedAt: expect.any(Date) as Date })
    await vault.put('hls/1/ab/360p/index.m3u8', Buffer.from('#EXTM3U\n'))
    await store.put('uploads/2026/a.webp', Buffer.from('webp'), { contentType: 'image/webp' })
    const head = (bucket: string, Key: string) => client.send(new HeadObjectCommand({ Bucket: bucket, Key }))
    expect((await head(S3_PRIVATE_BUCKET, 'hls/1/ab/360p/index.m3u8')).ContentType).toBe(
      'application/vnd.apple.mpegurl',
    )
    expect((await head(S3_PUBLIC_BUCKET, 'uploads/2026/a.webp')).ContentType).toBe('image/webp')
  })

  it('sends a large stream as a multipart upload and reads back every byte', async () => {
    const data = crypto.randomBytes((11 << 20) + 12345)
    commands.length = 0
    const pieces = Array.from({ length: 40 }, (_, i) =>
      data.subarray((i * data.length) / 40, ((i + 1) * data.length) / 40),
    )
    expect(await vault.put('sources/7/big.mp4', Readable.from(pieces))).toEqual({ size: data.length })
    expect(commands).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ])
    const back: Buffer[] = []
    for await (const chunk of (await vault.get('sources/7/big.mp4'))!) back.push(chunk as Buffer)
    expect(Buffer.concat(back).equals(data)).toBe(true)
    expect(await vault.stat('sources/7/big.mp4')).toMatchObject({ size: data.length })
  })

  it('leaves no object behind when the stream fails, small or multipart', async () => {
    async function* broken(bytes: number) {
      yield crypto.randomBytes(bytes)
      throw new Error('client went away')
    }
    await expect(vault.put('half/small.mp4', Readable.from(broken(1000)))).rejects.toThrow('client went away')
    commands.length = 0
    await expect(vault.put('half/big.mp4', Readable.from(broken(11 << 20)))).rejects.toThrow('client went away')
    expect(commands).toContain('AbortMultipartUploadCommand')
    expect(await keysIn(S3_PRIVATE_BUCKET, 'half/')).toEqual([])
  })

  it('answers null for a missing object and forgets deleted ones, by key or by folder', async () => {
    expect(await store.get('nothing/here.ts')).toBeNull()
    expect(await store.stat('nothing/here.ts')).toBeNull()
    await store.put('gone/x.ts', Buffer.from('x'))
    await store.put('gone/y/z.ts', Buffer.from('z'))
    await store.put('gone-not/keep.ts', Buffer.from('k'))
    await store.delete('gone/x.ts')
    await store.delete('gone/x.ts')
    expect(await store.stat('gone/x.ts')).toBeNull()
    await store.deletePrefix('gone/')
    expect(await keysIn(S3_PUBLIC_BUCKET, 'gone')).toEqual(['gone-not/keep.ts'])
  })

  it('gives public URLs only for the public store', () => {
    expect(store.url('posters/1/a.webp')).toBe('https://cdn.zixue.test/posters/1/a.webp')
    expect(() => vault.url('hls/1/master.m3u8')).toThrow('private')
    expect(vault.localPath('hls/1/master.m3u8')).toBeNull()
  })

  it('hands out presigned URLs that read one private object and die at their expiry', async () => {
    await vault.put('hls/9/ab/360p/seg_00000.ts', Buffer.from('segment bytes'))
    const url = new URL((await vault.signedUrl('hls/9/ab/360p/seg_00000.ts', 60))!)
    expect(url.pathname).toBe(`/${S3_PRIVATE_BUCKET}/hls/9/ab/360p/seg_00000.ts`)
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60')
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/)
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('segment bytes')

    const get = new GetObjectCommand({ Bucket: S3_PRIVATE_BUCKET, Key: 'hls/9/ab/360p/seg_00000.ts' })
    const old = await getSignedUrl(client, get, { expiresIn: 5, signingDate: new Date(Date.now() - 60_000) })
    const expired = await fetch(old)
    expect(expired.status).toBe(403)
    expect(await expired.text()).not.toContain('segment bytes')
  })

  it.each(['../escape.txt', 'a/../../escape', '/etc/passwd', 'a//b', '', 'with space'])(
    'refuses the key %j',
    async (key) => {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow('invalid storage key')
      await expect(vault.signedUrl(key, 60)).rejects.toThrow('invalid storage key')
    },
  )
})

describe('a bucket’s versioning, as backups note it', () => {
  /** A store that answers GetBucketVersioning with the XML S3 sends, for a bucket per status. */
  async function versioningStore() {
    const answers: Record<string, string> = {
      'on-bucket': '<Status>Enabled</Status>',
      'paused-bucket': '<Status>Suspended</Status>',
      'new-bucket': '',
    }
    const server = http.createServer((req, res) => {
      const url = new URL(req.url!, 'http://store')
      const body = answers[url.pathname.replaceAll('/', '')]
      if (!url.searchParams.has('versioning') || body === undefined) return res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/xml' })
      res.end(`<?xml version="1.0" encoding="UTF-8"?><VersioningConfiguration>${body}</VersioningConfiguration>`)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
  }

  it('reads enabled, suspended and never turned on, and says when the store does not tell', async () => {
    const store = await versioningStore()
    const other = createS3Client({
      endpoint: store.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'k', secretAccessKey: 's' },
    })
    try {
      expect(await versioningOf(other, 'on-bucket')).toBe('enabled')
      expect(await versioningOf(other, 'paused-bucket')).toBe('suspended')
      expect(await versioningOf(other, 'new-bucket')).toBe('off')
      expect(await versioningOf(other, 'elsewhere')).toBe('unknown (NotFound)')
    } finally {
      other.destroy()
      store.server.close()
    }
  })
})
