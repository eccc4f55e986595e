import crypto from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { assertKey, type Storage } from './storage.ts'

export interface LocalStorageOptions {
  root: string
  /** URL prefix the folder is served under (`/media/`); null for a private store. */
  publicPrefix: string | null
}

/**
 * A storage in a local folder. Writes go to a temporary file first and are renamed into place. The folder is
 * served by file name, so a content type given to `put` is not kept: the extension says it.
 */
export function localStorage(options: LocalStorageOptions): Storage {
  const root = path.resolve(options.root)
  const resolve = (key: string) => {
    assertKey(key)
    return path.join(root, ...key.split('/'))
  }
  return {
    async put(key, data) {
      const full = resolve(key)
      await fsp.mkdir(path.dirname(full), { recursive: true })
      const temp = `${full}.${crypto.randomBytes(6).toString('hex')}.part`
      try {
        const source = Buffer.isBuffer(data) ? Readable.from([data]) : data
        await pipeline(source, fs.createWriteStream(temp, { flags: 'wx' }))
        const { size } = await fsp.stat(temp)
        await fsp.rename(temp, full)
        return { size }
      } catch (err) {
        await fsp.rm(temp, { force: true })
        throw err
      }
    },
    async get(key) {
      const full = resolve(key)
      try {
        const handle = await fsp.open(full, 'r')
        return handle.createReadStream()
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async stat(key) {
      try {
        const s = await fsp.stat(resolve(key))
        return s.isFile() ? { size: s.size, modifiedAt: s.mtime } : null
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw err
      }
    },
    async delete(key) {
      await fsp.rm(resolve(key), { force: true })
    },
    async deletePrefix(prefix) {
      const clean = prefix.replace(/\/$/, '')
      await fsp.rm(resolve(clean), { recursive: true, force: true })
    },
    url(key) {
      assertKey(key)
      if (options.publicPrefix === null) throw new Error('a private store has no public URLs')
      return `${options.publicPrefix}${key}`
    },
    localPath(key) {
      return resolve(key)
    },
    async signedUrl(key) {
      assertKey(key)
      return null
    },
  }
}
