import zlib from 'node:zlib'
import { firstLoadAssets } from '#tests/support/first-load.ts'
import { startServer } from '#tests/support/spawn-server.ts'
const server = await startServer({ name: 'zixue-fl-detail' })
const base = server.baseUrl
try {
  const pages = (process.env.PAGES ?? '/,/boutique,/vip,/ke1,/mine,/course/1001.html,/foryou/1').split(',')
  for (const page of pages) {
    const html = await (await fetch(base + page)).text()
    const { scripts, stylesheets } = firstLoadAssets(html)
    let tot = 0
    const rows = []
    for (const f of [...scripts, ...stylesheets]) {
      const gz = zlib.gzipSync(Buffer.from(await (await fetch(base + f)).arrayBuffer()), { level: 9 }).length
      if (f.endsWith('.js')) tot += gz
      rows.push(`    ${(gz / 1024).toFixed(2).padStart(7)} ${f}`)
    }
    console.log(`${page}  JS ${(tot / 1024).toFixed(1)} KB`)
    console.log(rows.join('\n'))
  }
} finally {
  await server.stop()
}
