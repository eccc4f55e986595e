import { beforeAll, describe, expect, it } from 'vitest'
import { seedIfEmpty } from '#server/db/seed.ts'
import { attachDemoMedia } from '#server/modules/media/demo-media.ts'
import { useTestApp } from '#tests/support/app.ts'
import { firstLoadAssets } from '#tests/support/first-load.ts'
import { buildDir } from '#tests/support/spawn-server.ts'

/**
 * Issue 11 §4 (Lighthouse ≥ 98, `npm run bench:lighthouse`): the browser asks for a page's stylesheets before its
 * scripts. The first paint needs the CSS and not the scripts (module scripts run after parsing), yet React hoists
 * the module preloads ahead of the head's `<link rel="stylesheet">` tags; a `<link rel="preload" as="style">` per
 * stylesheet comes before the first module preload (app/lib/style-preloads.ts). In the production build's HTML.
 */
interface HeadLink {
  kind: 'style' | 'script'
  href: string
}

describe('the head of a learner page', () => {
  const t = useTestApp({ BUILD_DIR: buildDir }, { web: 'production' })
  beforeAll(async () => {
    await seedIfEmpty(t().database.db, { info: () => {} })
    await attachDemoMedia(t().database.db, t().app.services.storage, { info: () => {}, warn: () => {} })
  })

  async function html(url: string) {
    const res = await t().app.inject({ method: 'GET', url })
    expect(res.statusCode, url).toBe(200)
    return res.body
  }

  /** Where each of the head's stylesheet preloads and module preloads stands, in document order. */
  function headLinks(page: string): HeadLink[] {
    const head = page.slice(0, page.indexOf('</head>'))
    const tags = head.match(/<link\b[^>]*>/g) ?? []
    return tags.flatMap((tag): HeadLink[] => {
      const href = /\bhref="([^"#]+)#?"/.exec(tag)?.[1]
      if (!href) return []
      if (/\brel="preload"/.test(tag) && /\bas="style"/.test(tag)) return [{ kind: 'style', href }]
      if (/\brel="modulepreload"/.test(tag)) return [{ kind: 'script', href }]
      return []
    })
  }

  it('preloads every stylesheet before the first script on /, /boutique, a course page and a video page', async () => {
    const home = await html('/')
    const course = /href="(\/course\/\d+\.html)"/.exec(home)?.[1]
    expect(course, 'a course link on the home page').toBeDefined()
    const video = /href="(\/v\/\d+\.html)"/.exec(await html(course!))?.[1]
    expect(video, 'a lesson link on the course page').toBeDefined()
    for (const url of ['/', '/boutique', course!, video!]) {
      const page = await html(url)
      const links = headLinks(page)
      const firstScript = links.findIndex((l) => l.kind === 'script')
      expect(firstScript, `${url}: module preloads in the head`).toBeGreaterThan(0)
      const styles = links.slice(0, firstScript).map((l) => l.href)
      // Exactly the stylesheets the page links, each preloaded once, all ahead of the scripts.
      expect(styles.toSorted(), url).toEqual(firstLoadAssets(page).stylesheets.toSorted())
      expect(new Set(styles).size, url).toBe(styles.length)
      expect(
        links.slice(firstScript).some((l) => l.kind === 'style'),
        `${url}: a stylesheet after the scripts`,
      ).toBe(false)
    }
  })
})
