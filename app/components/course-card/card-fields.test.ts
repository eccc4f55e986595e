import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { CourseCard } from '#shared/api/catalogue.ts'
import type { PageServices } from '#server/page-services.ts'
import { servicesContext } from '#app/lib/services-context.ts'
import { loader as homeLoader } from '#app/routes/home/index.tsx'
import { loader as boutiqueLoader } from '#app/routes/category/index.tsx'

const CARD_KEYS = [
  'cover',
  'id',
  'is_free',
  'original_price_fen',
  'price_fen',
  'student_count',
  'teacher_name',
  'title',
  'type',
  'vip_free',
]

const course: CourseCard = {
  id: 1001,
  type: 'series',
  title: 'Photoshop 零基础入门',
  subtitle: '从工具到作品',
  cover: '/demo/courses/ps-zero.webp',
  price_fen: 9900,
  original_price_fen: 19900,
  is_free: false,
  vip_free: true,
  student_count: 12_000,
  teacher_name: '林晓',
  live_starts_at: null,
}

const section = { id: 3, kind: 'grid', title: '新课上架', subtitle: '每周都有新课', more_link: null, items: [] }
const leaf = { id: 7, name: 'Photoshop', icon: '/demo/categories/software.webp', sort: 1 }

function context() {
  const services = {
    home: { feed: async () => ({ sections: [{ ...section, courses: [course] }] }) },
    catalogue: {
      hotWords: async () => [{ word: 'Photoshop' }],
      categoryTree: async () => [{ ...leaf, id: 1, name: '软件', children: [leaf] }],
      courseList: async () => ({ list: [course], next_cursor: 'next' }),
    },
  }
  const c = new RouterContextProvider()
  c.set(servicesContext, services as unknown as PageServices)
  return c
}

const args = (url: string) =>
  ({ request: new Request(url), context: context(), params: {} }) as unknown as Parameters<typeof homeLoader>[0]

// The loader data is serialised into every server-rendered page: fields nothing on the page reads are cost only.
describe('loader data of the card lists', () => {
  it('the home feed carries only what a card shows of each course', async () => {
    const data = await homeLoader(args('http://localhost/'))
    const [first] = data.feed.sections
    expect(Object.keys(first!.courses[0]!).sort()).toEqual(CARD_KEYS)
    expect(first).toMatchObject({ ...section, courses: [{ id: 1001, title: course.title, vip_free: true }] })
    expect(data.hotWord).toBe('Photoshop')
  })

  it('the category screen carries the cards’ fields and the categories’ ids and names', async () => {
    const data = await boutiqueLoader(args('http://localhost/boutique?cate=7') as never)
    expect(Object.keys(data.first.list[0]!).sort()).toEqual(CARD_KEYS)
    expect(data.first.next_cursor).toBe('next')
    expect(data.tree).toEqual([{ id: 1, name: '软件', children: [{ id: 7, name: 'Photoshop' }] }])
    expect(data).toMatchObject({ topId: 1, subId: 7, selectedId: 7, selectedName: 'Photoshop' })
  })
})
