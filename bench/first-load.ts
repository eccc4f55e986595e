// `npm run bench:first-load`: the learner pages' first-load JS and CSS (gzip) of the production build, how many
// script and stylesheet requests each page makes before it is interactive (issue 11 §4: tab pages ≤ 120 KB, the
// course page ≤ 135 KB, ≤ 10 scripts and ≤ 3 stylesheets), and whether any file of the operator console (/admin) is
// among them; then the most scripts, stylesheets and bytes any learner page of the route table loads. Figures, not
// assertions: docs/performance.md records them; the request counts are also a test
// (server/http/first-load-budget.test.ts). BUILD_DIR=… measures another build.
import http from 'node:http'
import zlib from 'node:zlib'
import { FIRST_LOAD_GOAL, FIRST_LOAD_JS_KB, TAB_PAGES, firstLoadAssets } from '#tests/support/first-load.ts'
import { startServer } from '#tests/support/spawn-server.ts'
import { specUrls } from '#tests/spec-urls.ts'

const TAB_GOAL_KB = FIRST_LOAD_JS_KB.tabGoal
const COURSE_GOAL_KB = FIRST_LOAD_JS_KB.course

const server = await startServer({ name: 'zixue-first-load' })
const base = server.baseUrl

try {
  const home = await (await fetch(`${base}/`)).text()
  const courseId = /href="\/course\/(\d+)/.exec(home)?.[1]
  if (!courseId) throw new Error('no course link on the home page')
  const tabs: readonly string[] = TAB_PAGES
  const { lessonPage, livePage } = await playerPages()
  const pages = [
    ...tabs,
    `/course/${courseId}.html`,
    `/course/coursePurchase?course_id=${courseId}`,
    '/foryou/1',
    lessonPage,
    livePage,
  ]
  console.log(
    `First-load bytes of learner pages (gzip); goal: tab pages ≤ ${TAB_GOAL_KB} KB, course page ≤ ${COURSE_GOAL_KB} KB, ` +
      `≤ ${FIRST_LOAD_GOAL.scripts} scripts and ≤ ${FIRST_LOAD_GOAL.stylesheets} stylesheets:`,
  )
  for (const page of pages) {
    const w = await pageWeight(page)
    if (!w) throw new Error(`${page} does not answer 200`)
    const goal = tabs.includes(page) ? TAB_GOAL_KB : /^\/course\/\d/.test(page) ? COURSE_GOAL_KB : null
    const within =
      (goal === null || w.js / 1024 <= goal) &&
      w.scripts <= FIRST_LOAD_GOAL.scripts &&
      w.stylesheets <= FIRST_LOAD_GOAL.stylesheets
    const consoleFiles = w.files.filter((f) => /admin|console|antd(?!-mobile)|echarts|react-query/i.test(f))
    console.log(
      `  ${page.padEnd(40)} JS ${kb(w.js)} (${w.scripts} scripts)   CSS ${kb(w.css)} (${w.stylesheets} stylesheets)` +
        `   served gzip ${kb(w.servedGzip)}, br ${kb(w.servedBr)}` +
        `   ${goal === null ? '(no size goal)' : `goal ${goal} KB`} ${within ? 'within' : 'OVER'}` +
        `   console files: ${consoleFiles.length ? consoleFiles.join(', ') : 'none'}`,
    )
  }

  // Every URL of the route table and the app's own pages (the aliases redirect, and are left out).
  const teacher = (await apiData<{ id: number }>(`/course/teacher?course_id=${courseId}`)).id
  const category = (await apiData<{ list: { id: number }[] }>('/v2/cate')).list[0]!.id
  const kuaishou = await kuaishouCourse()
  const ours = ['/agreement/user', '/agreement/privacy', '/mine/data', '/mine/redeem']
  const all = new Set([...specUrls({ course: courseId, teacher, category, kuaishou }), lessonPage, livePage, ...ours])
  const weights: { page: string; w: NonNullable<Awaited<ReturnType<typeof pageWeight>>> }[] = []
  for (const page of all) {
    const w = await pageWeight(page)
    if (w) weights.push({ page, w })
  }
  const most = (by: (w: (typeof weights)[number]['w']) => number) =>
    weights.reduce((a, b) => (by(b.w) > by(a.w) ? b : a))
  const [scripts, sheets, heaviest] = [most((w) => w.scripts), most((w) => w.stylesheets), most((w) => w.js)]
  console.log(
    `Every learner page (${weights.length} answering 200): at most ${scripts.w.scripts} scripts ` +
      `(${scripts.page}), ${sheets.w.stylesheets} stylesheets (${sheets.page}); the most first-load JS ` +
      `${kb(heaviest.w.js)} (${heaviest.page})`,
  )
} finally {
  await server.stop()
}

async function apiData<T>(path: string): Promise<T> {
  return ((await (await fetch(`${base}/api${path}`)).json()) as { data: T }).data
}

/** A demo course a Kuaishou SKU grants: /course/ks/{id} is a 404 for the others. */
async function kuaishouCourse() {
  const list = await apiData<{ list: { id: number }[] }>('/v2/course_list?limit=50')
  for (const { id } of list.list) {
    const answer = (await (await fetch(`${base}/api/ksxd/course/comments?course_id=${id}`)).json()) as { code: number }
    if (answer.code === 200) return id
  }
  throw new Error('no demo course among the first 50 is sold on Kuaishou')
}

/** A free lesson's page and a live class's page of the demo: learners open both from shared links. */
async function playerPages() {
  const list = await apiData<{ list: { id: number; is_free: boolean; type: string }[] }>('/v2/course_list?limit=50')
  const free = list.list.find((c) => c.is_free && c.type !== 'live')
  const live = list.list.find((c) => c.type === 'live')
  if (!free || !live) throw new Error('the demo has no free course or no live class')
  const detail = await apiData<{ chapters: { videos: { id: number }[] }[] }>(`/course?id=${free.id}`)
  const lesson = detail.chapters.flatMap((c) => c.videos)[0]
  if (!lesson) throw new Error(`course ${free.id} has no lesson`)
  return { lessonPage: `/v/${lesson.id}.html`, livePage: `/li/${live.id}.html` }
}

function kb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`
}

/** The page's first-load scripts and stylesheets (tests/support/first-load.ts), gzip level 9; null unless 200. */
async function pageWeight(page: string) {
  const res = await fetch(base + page, { redirect: 'manual' })
  const html = await res.text()
  if (res.status !== 200) return null
  const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 }).length
  const { scripts, stylesheets } = firstLoadAssets(html)
  let jsBytes = 0
  let servedGzip = 0
  let servedBr = 0
  for (const f of scripts) {
    jsBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
    servedGzip += await servedBytes(f, 'gzip')
    servedBr += await servedBytes(f, 'br')
  }
  let cssBytes = 0
  for (const f of stylesheets) cssBytes += gz(Buffer.from(await (await fetch(base + f)).arrayBuffer()))
  return {
    js: jsBytes,
    servedGzip,
    servedBr,
    css: cssBytes,
    files: scripts,
    scripts: scripts.length,
    stylesheets: stylesheets.length,
  }
}

/**
 * The bytes the server sends for a file when the browser accepts `encoding` (the precompressed .gz/.br of
 * scripts/precompress.ts): what a phone downloads, next to the gzip -9 the goal is measured in. fetch() would
 * decompress, so this reads the raw answer.
 */
function servedBytes(file: string, encoding: 'gzip' | 'br'): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(base + file, { headers: { 'accept-encoding': encoding } }, (res) => {
        if (res.headers['content-encoding'] !== encoding)
          reject(new Error(`${file}: served as ${res.headers['content-encoding'] ?? 'identity'}, not ${encoding}`))
        let n = 0
        res.on('data', (chunk: Buffer) => (n += chunk.length))
        res.on('end', () => resolve(n))
      })
      .on('error', reject)
  })
}
