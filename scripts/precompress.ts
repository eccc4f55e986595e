// After `react-router build` (npm run build): writes file.br (Brotli, best quality) and file.gz (gzip -9) next to
// every built text asset over 1 KB, so the server sends them precompressed (@fastify/static preCompressed) without
// spending CPU per request. Usage: node scripts/precompress.ts [folder] (default BUILD_DIR/client).
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

const TEXT = /\.(?:js|mjs|css|html|json|svg|txt|map|webmanifest|xml)$/
const MIN_BYTES = 1024

export function precompress(dir: string) {
  let files = 0
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !TEXT.test(entry.name)) continue
    const file = path.join(entry.parentPath, entry.name)
    const body = fs.readFileSync(file)
    if (body.length < MIN_BYTES) continue
    const br = zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    })
    const gz = zlib.gzipSync(body, { level: 9 })
    // Only where it saves something: @fastify/static falls back to the plain file when no variant exists.
    if (br.length < body.length) fs.writeFileSync(`${file}.br`, br)
    if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz)
    files++
  }
  return files
}

if (import.meta.main) {
  const dir = path.resolve(process.argv[2] ?? path.join(process.env.BUILD_DIR ?? 'build', 'client'))
  console.log(`precompressed ${precompress(dir)} files in ${dir}`)
}
