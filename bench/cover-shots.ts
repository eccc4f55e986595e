// Screenshots of `/` and `/boutique` on a 390×844 phone (device pixel ratio 3), to compare the course covers before
// and after a change to how they are served (issue 11 §4: resized covers must look the same, sharp and rightly
// cropped). The production build served by the app, as bench/lighthouse.ts. `node bench/cover-shots.ts <outDir>`.
import fs from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { startServer } from '#tests/support/spawn-server.ts'

const outDir = path.resolve(process.argv[2] ?? 'bench/results/cover-shots')
fs.mkdirSync(outDir, { recursive: true })
const server = await startServer({ name: 'zixue-cover-shots', logToFile: true })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
})
try {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
  })
  // The system overlays would cover the page: mark them seen, as the browser journeys do.
  const overlays = (await (await fetch(`${server.baseUrl}/api/systemOverlay`)).json()) as {
    data?: { list: { so_id: number }[] }
  }
  const hostname = new URL(server.baseUrl).hostname
  await context.addCookies(
    (overlays.data?.list ?? []).map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })),
  )
  const page = await context.newPage()
  for (const [url, name] of [
    ['/', 'home'],
    ['/boutique', 'boutique'],
  ] as const) {
    await page.goto(server.baseUrl + url, { waitUntil: 'networkidle' })
    const used = await page.$$eval('img', (imgs) =>
      imgs.slice(0, 6).map((i) => `${i.currentSrc.replace(location.origin, '')} (${i.naturalWidth}px in ${i.width}px)`),
    )
    console.log(`${url}: ${used.join('; ')}`)
    await page.screenshot({ path: path.join(outDir, `${name}.png`) })
  }
} finally {
  await browser.close()
  await server.stop()
}
