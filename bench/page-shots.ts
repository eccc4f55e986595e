// Screenshots of `/`, `/boutique`, a course page and `/vip` on a 390×844 phone at 2×, each page in a fresh browser
// context (no image reused from another page's cache), the screen and the whole page; with a second directory, every
// pixel compared with its shots. For markup changes that must not move a pixel (issue 11 §3). The production build
// served by the app (BUILD_DIR picks another build). `node bench/page-shots.ts <outDir> [<compareWithDir>]`;
// PAGE_SHOTS (below) picks other pages.
import fs from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'
import sharp from 'sharp'
import { startServer } from '#tests/support/spawn-server.ts'

const outDir = path.resolve(process.argv[2] ?? 'bench/results/page-shots')
const compareWith = process.argv[3] ? path.resolve(process.argv[3]) : undefined
// PAGE_SHOTS=/v/50001.html,/ke2: these pages instead, each shot named after its path.
const pages: (readonly [string, string])[] = process.env.PAGE_SHOTS
  ? process.env.PAGE_SHOTS.split(',').map((url) => [
      url,
      url.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '_') || 'home',
    ])
  : [
      ['/', 'home'],
      ['/boutique', 'boutique'],
      ['/course/1001.html', 'course'],
      ['/vip', 'vip'],
    ]
fs.mkdirSync(outDir, { recursive: true })
const server = await startServer({ name: 'zixue-page-shots', logToFile: true })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
})
try {
  // The system overlays would cover the page: marked seen, as the browser journeys do.
  const overlays = (await (await fetch(`${server.baseUrl}/api/systemOverlay`)).json()) as {
    data?: { list: { so_id: number }[] }
  }
  const hostname = new URL(server.baseUrl).hostname
  for (const [url, name] of pages) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
    })
    await context.addCookies(
      (overlays.data?.list ?? []).map((o) => ({ name: `so_seen_${o.so_id}`, value: '1', domain: hostname, path: '/' })),
    )
    const page = await context.newPage()
    await page.goto(server.baseUrl + url, { waitUntil: 'networkidle' })
    await page.screenshot({ path: path.join(outDir, `${name}.png`) })
    // Every image loaded for the whole page (lazy ones would otherwise differ by what scrolled into view).
    await page.$$eval('img[loading="lazy"]', (imgs) => imgs.forEach((i) => ((i as HTMLImageElement).loading = 'eager')))
    await page.waitForLoadState('networkidle')
    await page.evaluate(() => Promise.all([...document.images].map((i) => i.decode().catch(() => {}))))
    await page.screenshot({ path: path.join(outDir, `${name}-full.png`), fullPage: true })
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
}

if (compareWith)
  for (const file of fs.readdirSync(outDir).filter((f) => f.endsWith('.png'))) {
    const [a, b] = await Promise.all(
      [outDir, compareWith].map((dir) => sharp(path.join(dir, file)).raw().toBuffer({ resolveWithObject: true })),
    )
    if (a!.info.width !== b!.info.width || a!.info.height !== b!.info.height) {
      console.log(`${file}: size ${a!.info.width}×${a!.info.height} vs ${b!.info.width}×${b!.info.height}`)
      continue
    }
    let differ = 0
    for (let i = 0; i < a!.data.length; i += a!.info.channels)
      for (let c = 0; c < a!.info.channels; c++)
        if (a!.data[i + c] !== b!.data[i + c]) {
          differ++
          break
        }
    console.log(`${file}: ${differ === 0 ? 'identical' : `${differ} pixels differ`}`)
  }
