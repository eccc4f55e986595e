import { beforeAll, describe, expect, it } from 'vitest'
import { comments } from '#server/db/schema/comments.ts'
import { exchangeSkus } from '#server/db/schema/exchange.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import type { Comment } from '#server/modules/comments/comments.schema.ts'
import { titledCourse, useExchangeApp, type Res } from './testing.ts'

interface Page {
  list: Comment[]
  next_cursor: string | null
}

describe('GET /api/ksxd/course/comments (the /course/ks landing page)', () => {
  const t = useExchangeApp()
  let onKuaishou: number
  let onDouyinOnly: number
  let unmapped: number
  let written: number[]

  beforeAll(async () => {
    const { db } = t().database
    onKuaishou = await titledCourse(db, '快手同款：剪映入门')
    onDouyinOnly = await titledCourse(db, '抖音专卖：PR 剪辑')
    unmapped = await titledCourse(db, '没有上架快手的课')
    const at = new Date()
    await db.insert(exchangeSkus).values([
      {
        platform: 'kuaishou',
        skuId: 'KS-1',
        productName: '剪映入门',
        courseId: onKuaishou,
        createdAt: at,
        updatedAt: at,
      },
      {
        platform: 'douyin_life',
        skuId: 'DY-1',
        productName: 'PR',
        courseId: onDouyinOnly,
        createdAt: at,
        updatedAt: at,
      },
    ])
    const author = await makeMember(db)
    // Five comments a minute apart; the second is pinned, the fourth hidden (its author and staff only).
    written = []
    for (let i = 0; i < 5; i++) {
      const [row] = await db
        .insert(comments)
        .values({
          memberId: author.id,
          threadMemberId: author.id,
          courseId: onKuaishou,
          content: `第 ${i + 1} 条评论`,
          type: i === 1 ? 'pinned' : 'normal',
          status: i === 3 ? 'hidden' : 'shown',
          createdAt: new Date(at.getTime() - (5 - i) * 60_000),
        })
        .returning({ id: comments.id })
      written.push(row!.id)
    }
    await db.insert(comments).values({
      memberId: author.id,
      threadMemberId: author.id,
      courseId: unmapped,
      content: '别的课的评论',
      createdAt: at,
    })
  })

  const get = async (query: string) => {
    const res = await t().app.inject({ method: 'GET', url: `/api/ksxd/course/comments?${query}` })
    return { status: res.statusCode, body: res.json<Res<Page>>() }
  }

  it('pages the comments newest first, the pinned one in its place, hidden ones left out', async () => {
    const first = await get(`course_id=${onKuaishou}&limit=2`)
    expect(first.status).toBe(200)
    expect(first.body.data.list.map((c) => c.content)).toEqual(['第 5 条评论', '第 3 条评论'])
    expect(first.body.data.list[0]!.course_id).toBe(onKuaishou)
    const second = await get(`course_id=${onKuaishou}&limit=2&cursor=${first.body.data.next_cursor}`)
    expect(second.body.data.list.map((c) => c.content)).toEqual(['第 2 条评论', '第 1 条评论'])
    expect(second.body.data.list[0]!.type).toBe('pinned')
    expect(second.body.data.next_cursor).toBeNull()
    expect(written).toHaveLength(5)
  })

  it('answers 404 for a course no Kuaishou SKU maps to, sold elsewhere or nowhere', async () => {
    for (const id of [onDouyinOnly, unmapped]) {
      const res = await get(`course_id=${id}`)
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ code: 404, msg: '这门课程没有在快手小店销售' })
    }
    expect((await get('course_id=999999')).status).toBe(404)
  })

  it('refuses a missing or malformed course id with 400', async () => {
    expect((await get('')).status).toBe(400)
    expect((await get('course_id=abc')).status).toBe(400)
  })

  it('gives the landing page the course only when it is on sale on Kuaishou', async () => {
    const landing = t().app.services.kuaishouCourse
    expect(await landing.course(onKuaishou)).toMatchObject({ id: onKuaishou, title: '快手同款：剪映入门' })
    await expect(landing.course(onDouyinOnly)).rejects.toMatchObject({ entry: { code: 404 } })
  })
})
