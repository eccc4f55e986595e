import fs from 'node:fs/promises'
import path from 'node:path'

/** Where media files live. The local folder (MEDIA_DIR) now; an S3-compatible store can take its place. */
export interface MediaStorage {
  /** Writes a new file at a relative path (`uploads/2025/….webp`); never overwrites. */
  put(relativePath: string, data: Buffer): Promise<void>
  remove(relativePath: string): Promise<void>
}

export function localMediaStorage(root: string): MediaStorage {
  const resolve = (relativePath: string) => {
    const full = path.resolve(root, relativePath)
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error('media path outside the media folder')
    return full
  }
  return {
    async put(relativePath, data) {
      const full = resolve(relativePath)
      await fs.mkdir(path.dirname(full), { recursive: true })
      await fs.writeFile(full, data, { flag: 'wx' })
    },
    async remove(relativePath) {
      await fs.rm(resolve(relativePath), { force: true })
    },
  }
}
