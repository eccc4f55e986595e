import type { DbOrTx } from './database.ts'
import { homeSectionItems, homeSections } from './schema/home.ts'
import { demoImage, seedBanners, seedCategories, seedCourses, type SeedCourse } from './seed-data.ts'
import { createHash } from 'node:crypto'

/** A stable number from a string, so the demo looks the same on every machine. */
export function stableHash(text: string) {
  return createHash('sha1').update(text).digest().readUInt32BE(0)
}

/** The home feed: banners, the newest and hottest courses, and one section per top category. */
export async function seedHome(db: DbOrTx, ids: { areaId: Map<string, number>; idOf: (slug: string) => number }) {
  const { areaId, idOf } = ids
  const byCreated = [...seedCourses].sort((a, b) => (stableHash(a.slug) % 120) - (stableHash(b.slug) % 120))
  const newest = byCreated.filter((c) => c.type !== 'live' && c.type !== 'system').slice(0, 4)
  const hottest = [...seedCourses]
    .filter((c) => !c.isFree)
    .sort((a, b) => b.students - a.students)
    .slice(0, 5)
  const free = seedCourses.filter((c) => c.isFree && c.type !== 'live')
  const vip = seedCourses.filter((c) => c.vipFree).slice(0, 6)
  const systems = seedCourses.filter((c) => c.type === 'system')
  const curated = [
    'ps-zero',
    'excel-functions',
    'procreate-zero',
    'jianying-zero',
    'manga-zero',
    'ui-figma',
    'watercolor-flowers',
    'davinci-color',
  ]

  type Item = { courseId?: number; categoryId?: number; title?: string; imageUrl?: string; link?: string }
  const banners = (slugs: string[]): Item[] =>
    seedBanners
      .filter((b) => slugs.includes(b.slug))
      .map((b) => ({
        title: b.title,
        imageUrl: demoImage.banner(b.slug),
        link: b.course ? `/course/${idOf(b.course)}.html` : b.link!,
      }))
  const shortcuts: Item[] = seedCategories.map((c) => ({
    categoryId: areaId.get(c.slug)!,
    title: c.name,
    imageUrl: demoImage.category(c.slug),
    link: `/boutique?cate=${areaId.get(c.slug)!}`,
  }))
  const courseItems = (list: SeedCourse[]): Item[] => list.map((c) => ({ courseId: idOf(c.slug) }))

  const feeds: {
    feed: 'v3' | 'v2'
    sections: {
      kind: 'banner' | 'shortcuts' | 'courses' | 'grid' | 'ranking'
      title: string
      subtitle?: string
      moreLink?: string
      items: Item[]
    }[]
  }[] = [
    {
      feed: 'v3',
      sections: [
        { kind: 'banner', title: '', items: banners(['vip', 'ps-zero', 'system-illustration']) },
        { kind: 'shortcuts', title: '', items: shortcuts },
        {
          kind: 'grid',
          title: '新课上架',
          subtitle: '每周都有新课',
          moreLink: '/ke?sort=new',
          items: courseItems(newest),
        },
        {
          kind: 'ranking',
          title: '热门推荐',
          subtitle: '大家都在学',
          moreLink: '/ke?sort=hot',
          items: courseItems(hottest),
        },
        { kind: 'courses', title: '免费好课', subtitle: '不花钱也能学', items: courseItems(free) },
        {
          kind: 'grid',
          title: 'VIP 免费学',
          subtitle: '开通会员，这些课全部免费',
          moreLink: '/vip',
          items: courseItems(vip),
        },
        {
          kind: 'courses',
          title: '系统班',
          subtitle: '一条路线学到底',
          moreLink: '/ke?type=system',
          items: courseItems(systems),
        },
      ],
    },
    {
      feed: 'v2',
      sections: [
        { kind: 'banner', title: '', items: banners(['ps-zero', 'vip']) },
        { kind: 'shortcuts', title: '', items: shortcuts },
        {
          kind: 'grid',
          title: '精品课程',
          subtitle: '老师推荐',
          moreLink: '/ke',
          items: courseItems(curated.map((s) => seedCourses.find((c) => c.slug === s)!)),
        },
        { kind: 'courses', title: '免费专区', items: courseItems(free) },
      ],
    },
  ]

  for (const { feed, sections } of feeds) {
    const rows = await db
      .insert(homeSections)
      .values(
        sections.map((s, i) => ({
          feed,
          kind: s.kind,
          title: s.title,
          subtitle: s.subtitle ?? '',
          moreLink: s.moreLink ?? null,
          sort: i,
        })),
      )
      .returning({ id: homeSections.id, sort: homeSections.sort })
    await db.insert(homeSectionItems).values(
      sections.flatMap((s, i) => {
        const sectionId = rows.find((r) => r.sort === i)!.id
        return s.items.map((item, j) => ({ ...item, sectionId, sort: j }))
      }),
    )
  }
}
