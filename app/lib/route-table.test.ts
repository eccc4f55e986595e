import fs from 'node:fs'
import path from 'node:path'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import { matchRoutes, type RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import { TABS } from '#app/lib/route-rules.ts'
import { specUrls } from '#tests/spec-urls.ts'

/** Route id → module file, to name what a URL reaches. */
const files = new Map<string, string>()

function toObjects(entries: RouteConfigEntry[]): RouteObject[] {
  return entries.map((e): RouteObject => {
    const id = e.id ?? e.file
    files.set(id, e.file)
    const base = { id, path: e.path, caseSensitive: e.caseSensitive }
    return e.index ? { ...base, index: true } : { ...base, children: e.children ? toObjects(e.children) : undefined }
  })
}

const tree = toObjects(routes)

/** The id of the deepest route a URL reaches, or null for a 404. */
function idFor(url: string): string | null {
  return matchRoutes(tree, url)?.at(-1)?.route.id ?? null
}

/** The file of the deepest route a URL reaches, or null for a 404. */
function fileFor(url: string): string | null {
  const id = idFor(url)
  return id ? (files.get(id) ?? null) : null
}

/** docs/routes.md rows: each URL of the first column (sample ids filled in) with the file of the third. */
function documentedRows() {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/routes.md'), 'utf8')
  const rows: { url: string; file: string; optionalId: boolean }[] = []
  for (const line of doc.split('\n')) {
    if (!line.startsWith('| `')) continue
    const cells = line.split('|').map((c) => c.trim())
    const urlCell = cells[1] ?? ''
    const file = /`([^`]+)`/.exec(cells[3] ?? '')?.[1]
    if (!file) throw new Error(`No file in docs/routes.md row: ${line}`)
    const required = urlCell.includes('id required')
    for (const [, pattern] of urlCell.matchAll(/`([^`]+)`/g)) {
      rows.push({ url: pattern!.replace('{id}', '1001'), file, optionalId: !required && pattern!.endsWith('/{id}') })
      if (!required && pattern!.endsWith('/{id}'))
        rows.push({ url: pattern!.slice(0, -'/{id}'.length) || '/', file, optionalId: true })
    }
  }
  return rows
}

describe('app/routes.ts', () => {
  it('gives every URL of the spec table a screen or an alias (no 404)', () => {
    const missing = specUrls({ course: 1001, teacher: 1, category: 1 }).filter((url) => fileFor(url) === null)
    expect(missing).toEqual([])
  })

  it('sends every URL in docs/routes.md to the file documented there', () => {
    const rows = documentedRows()
    expect(rows.length).toBeGreaterThan(130)
    const wrong = rows
      .filter((r) => fileFor(r.url) !== r.file)
      .map((r) => `${r.url}: ${fileFor(r.url)} (documented ${r.file})`)
    expect(wrong).toEqual([])
  })

  it('documents every URL of the spec table in docs/routes.md', () => {
    const documented = new Set(documentedRows().map((r) => r.url.toLowerCase()))
    const undocumented = specUrls({ course: 1001, teacher: 1001, category: 1001, other: 1001 }).filter(
      (u) => !documented.has(u.toLowerCase()),
    )
    expect(undocumented).toEqual([])
  })

  it('puts exactly the five tab screens inside the tab layout, in tab order', () => {
    const layout = routes.find((r) => r.file === 'routes/tabs/layout.tsx')
    const paths = (layout?.children ?? []).map((c) => (c.index ? '/' : `/${c.path}`))
    expect(paths).toEqual(TABS.map((t) => t.path))
    const outside = tree.filter((r) => r.id !== 'routes/tabs/layout.tsx')
    for (const tab of TABS) expect(matchRoutes(outside, tab.path)).toBeNull()
  })

  it.each([
    ['/course/systemCourse', 'routes/learning/system-course.tsx'],
    ['/course/systemGroup', 'routes/learning/system-group.tsx'],
    ['/course/coursePurchase', 'routes/commerce/course-purchase.tsx'],
    ['/course/1001.html', 'routes/course/detail.tsx'],
    ['/course/1001', 'routes/course/detail.tsx'],
    ['/painter/list', 'soon:poster-templates:painter/list'],
    ['/painter/7', 'soon:poster-preview:painter/:id'],
    ['/cus/msg', 'soon:staff-messages:cus/msg'],
    ['/cus/42', 'soon:member-profile:cus/:id?'],
    ['/contract/see/3', 'routes/tuition/contract-view.tsx'],
    ['/contract/3', 'routes/tuition/contract.tsx'],
    ['/vip/d', 'routes/commerce/vip-plan.tsx'],
    ['/payamount', 'routes/commerce/pay-amount.tsx'],
  ])('sends %s to %s (static beats dynamic; any letter case)', (url, target) => {
    // Placeholders share one module (routes/coming-soon/screen.tsx): their route id tells them apart.
    expect(target.startsWith('soon:') ? idFor(url) : fileFor(url)).toBe(target)
  })

  it('answers 404 for paths outside the table', () => {
    for (const url of ['/nope', '/course/1/extra', '/painter/1/2', '/mine/unknown', '/v/1/2'])
      expect(fileFor(url), url).toBeNull()
  })
})
