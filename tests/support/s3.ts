import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import { freePort } from './free-port.ts'

export const S3_PUBLIC_BUCKET = 'zixue-public'
export const S3_PRIVATE_BUCKET = 'zixue-private'

export interface TestS3 {
  endpoint: string
  /** The environment that points the server at this store (STORAGE=s3 and the S3_* variables). */
  env: Record<string, string>
  stop: () => Promise<void>
}

/**
 * A real S3-protocol server (s3rver) on a free port, its objects in a fresh temporary folder, with the public and
 * private buckets made. Its limits, which tests must not lean on: it reads any request without credentials and does
 * not check Signature V4 (it does check a presigned URL's expiry).
 */
export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-s3-'))
  const port = await freePort()
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [
      { name: S3_PUBLIC_BUCKET, configs: [] },
      { name: S3_PRIVATE_BUCKET, configs: [] },
    ],
  })
  await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET_PUBLIC: S3_PUBLIC_BUCKET,
      S3_BUCKET_PRIVATE: S3_PRIVATE_BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}
