import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { localStorage } from './local.ts'
import { readText } from './storage.ts'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-storage-test-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe('local folder storage', () => {
  const store = localStorage({ root: path.join(root, 'public'), publicPrefix: '/media/' })
  const vault = localStorage({ root: path.join(root, 'private'), publicPrefix: null })

  it('writes a stream or a buffer, reads it back, and tells its size', async () => {
    expect(await store.put('a/b/one.txt', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({
      size: 11,
    })
    expect(await readText(store, 'a/b/one.txt')).toBe('hello world')
    await store.put('a/b/one.txt', Buffer.from('replaced'))
    expect(await readText(store, 'a/b/one.txt')).toBe('replaced')
    expect(await store.stat('a/b/one.txt')).toMatchObject({ size: 8 })
    expect(fs.readdirSync(path.join(root, 'public/a/b'))).toEqual(['one.txt'])
  })

  it('answers null for a missing object and forgets deleted ones', async () => {
    expect(await store.get('nothing/here.ts')).toBeNull()
    expect(await store.stat('nothing/here.ts')).toBeNull()
    await store.put('gone/x.ts', Buffer.from('x'))
    await store.put('gone/y/z.ts', Buffer.from('z'))
    await store.delete('gone/x.ts')
    await store.delete('gone/x.ts')
    expect(await store.stat('gone/x.ts')).toBeNull()
    await store.deletePrefix('gone/')
    expect(fs.existsSync(path.join(root, 'public/gone'))).toBe(false)
  })

  it('leaves no partial file behind when the stream fails', async () => {
    async function* broken() {
      yield Buffer.from('part')
      throw new Error('client went away')
    }
    await expect(store.put('half/file.mp4', Readable.from(broken()))).rejects.toThrow('client went away')
    expect(fs.readdirSync(path.join(root, 'public/half'))).toEqual([])
  })

  it('keeps an uploaded image under its key, with a content type for stores that keep one', async () => {
    expect(await store.put('uploads/2026/a.webp', Buffer.from('webp'), { contentType: 'image/webp' })).toEqual({
      size: 4,
    })
    expect(await readText(store, 'uploads/2026/a.webp')).toBe('webp')
    expect(store.url('uploads/2026/a.webp')).toBe('/media/uploads/2026/a.webp')
  })

  it('gives public URLs only for the public store', () => {
    expect(store.url('posters/1/a.webp')).toBe('/media/posters/1/a.webp')
    expect(() => vault.url('hls/1/master.m3u8')).toThrow('private')
    expect(vault.localPath('hls/1/master.m3u8')).toBe(path.join(root, 'private/hls/1/master.m3u8'))
  })

  it.each(['../escape.txt', 'a/../../escape', '/etc/passwd', 'a//b', '', 'a/./b', 'with space'])(
    'refuses the key %j',
    async (key) => {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow('invalid storage key')
      expect(() => store.localPath(key)).toThrow('invalid storage key')
    },
  )
})
