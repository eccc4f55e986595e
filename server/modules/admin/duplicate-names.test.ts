import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '#tests/support/app.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'

type Res<T = Record<string, unknown>> = { code: number; msg: string; data: T }

// Names a learner would see twice are refused: sibling categories, hot words, VIP plans on sale. A unique index on
// the name as people compare it (case and spaces aside) decides, so two operators saving at once cannot both win.

describe('names learners would see twice (categories, hot words, VIP plans on sale)', () => {
  const t = useTestApp()
  let admin: Record<string, string>
  beforeAll(async () => {
    admin = (await makeMember(t().database.db, 'admin')).headers
  })
  const call = async <T = { id: number }>(method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await t().app.inject({ method, url, headers: admin, payload })
    return { status: res.statusCode, body: res.json<Res<T>>() }
  }
  const post = <T = { id: number }>(url: string, payload: object) => call<T>('POST', url, payload)
  const patch = <T = { id: number }>(url: string, payload: object) => call<T>('PATCH', url, payload)
  /** The same write sent `n` times at once: the answers' codes, and the refusals. */
  const race = async (n: number, write: () => Promise<{ body: Res<unknown> }>) => {
    const answers = await Promise.all(Array.from({ length: n }, write))
    return { codes: answers.map((a) => a.body.code).sort(), refused: answers.filter((a) => a.body.code !== 200) }
  }

  describe('categories: no two siblings of one name', () => {
    it('refuses a second top-level 软件, whatever its case and spaces, with 409 on name', async () => {
      expect((await post('/api/admin/categories', { name: '软件' })).body.code).toBe(200)
      for (const name of ['软件', ' 软 件 ', '软件\u3000']) {
        const res = await post('/api/admin/categories', { name })
        expect(res.status).toBe(200)
        expect(res.body).toEqual({ code: 409, msg: `同级已有名为「${name.trim()}」的分类`, data: { field: 'name' } })
      }
      expect((await post('/api/admin/categories', { name: 'Office' })).body.code).toBe(200)
      expect((await post('/api/admin/categories', { name: 'office' })).body).toMatchObject({
        code: 409,
        data: { field: 'name' },
      })
    })

    it('allows one name under two parents, refuses a rename or a move onto a sibling’s name', async () => {
      const area = (n: string) => post('/api/admin/categories', { name: n }).then((r) => r.body.data.id)
      const [a, b] = [await area('设计A'), await area('设计B')]
      const sub = async (name: string, parent_id: number) =>
        (await post('/api/admin/categories', { name, parent_id })).body
      expect((await sub('海报', a)).code).toBe(200)
      expect((await sub('海报', b)).code).toBe(200)
      const logo = (await sub('标志', a)).data.id
      expect((await patch(`/api/admin/categories/${logo}`, { name: '海报' })).body).toEqual({
        code: 409,
        msg: '同级已有名为「海报」的分类',
        data: { field: 'name' },
      })
      // Its own name again (or a change of case alone) is no clash.
      expect((await patch(`/api/admin/categories/${logo}`, { name: '标志', sort: 2 })).body.code).toBe(200)
      const poster = (await sub('海报', a)).code
      expect(poster).toBe(409)
      const lone = (await sub('标志', b)).data.id
      expect((await patch(`/api/admin/categories/${lone}`, { parent_id: a })).body).toEqual({
        code: 409,
        msg: '同级已有名为「标志」的分类',
        data: { field: 'parent_id' },
      })
    })

    it('lets exactly one of eight concurrent 剪辑 through', async () => {
      const { codes, refused } = await race(8, () => post('/api/admin/categories', { name: '剪辑' }))
      expect(codes).toEqual([200, ...Array<number>(7).fill(409)])
      expect(refused.map((r) => r.body.data)).toEqual(Array(7).fill({ field: 'name' }))
      const rows = await t().database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from categories where name = '剪辑'`,
      )
      expect(rows.rows[0]!.n).toBe(1)
    })
  })

  describe('hot words: each once', () => {
    it('refuses a word the list has (case and spaces aside), added or renamed, with 409 on word', async () => {
      expect((await post('/api/admin/hot-words', { word: 'Photoshop' })).body.code).toBe(200)
      expect((await post('/api/admin/hot-words', { word: 'photo shop' })).body).toEqual({
        code: 409,
        msg: '热词里已有「photo shop」',
        data: { field: 'word' },
      })
      const other = (await post('/api/admin/hot-words', { word: '剪映' })).body.data.id
      expect((await patch(`/api/admin/hot-words/${other}`, { word: 'PHOTOSHOP' })).body).toMatchObject({
        code: 409,
        data: { field: 'word' },
      })
      const shown = await t().app.inject({ method: 'GET', url: '/api/hotWords' })
      expect(shown.json<Res<{ list: { word: string }[] }>>().data.list.map((w) => w.word)).toEqual([
        'Photoshop',
        '剪映',
      ])
    })

    it('lets exactly one of eight concurrent adds through', async () => {
      const { codes } = await race(8, () => post('/api/admin/hot-words', { word: '水彩' }))
      expect(codes).toEqual([200, ...Array<number>(7).fill(409)])
    })
  })

  describe('VIP plans: no two on sale of one name', () => {
    const plan = (name: string, extra: object = {}) =>
      post<{ id: number }>('/api/admin/vip-plans', { name, days: 30, price_fen: 3900, ...extra })

    it('refuses a second 月卡 on sale with 409 on name; a withdrawn 月卡 does not count', async () => {
      const first = (await plan('月卡')).body.data.id
      expect((await plan(' 月卡 ')).body).toEqual({
        code: 409,
        msg: '在售的套餐里已有名为「月卡」的套餐',
        data: { field: 'name' },
      })
      // Withdrawn plans keep their name (it is on their orders), so a new 月卡 may go on sale at another price.
      expect((await patch(`/api/admin/vip-plans/${first}`, { active: false })).body.code).toBe(200)
      const second = await plan('月卡', { price_fen: 2900 })
      expect(second.body.code).toBe(200)
      // …and the old one cannot go back on sale beside it, nor a plan on sale be renamed onto it.
      expect((await patch(`/api/admin/vip-plans/${first}`, { active: true })).body).toEqual({
        code: 409,
        msg: '在售的套餐里已有名为「月卡」的套餐',
        data: { field: 'active' },
      })
      const season = (await plan('季卡')).body.data.id
      expect((await patch(`/api/admin/vip-plans/${season}`, { name: '月卡' })).body).toMatchObject({
        code: 409,
        data: { field: 'name' },
      })
      expect((await plan('月卡', { active: false })).body.code).toBe(200)
      const centre = await t().app.inject({ method: 'GET', url: '/api/v2/vip' })
      expect(
        centre
          .json<Res<{ plans: { name: string }[] }>>()
          .data.plans.map((p) => p.name)
          .sort(),
      ).toEqual(['季卡', '月卡'])
    })

    it('lets exactly one of eight concurrent 年卡 through', async () => {
      const { codes } = await race(8, () => plan('年卡'))
      expect(codes).toEqual([200, ...Array<number>(7).fill(409)])
    })
  })

  it('migration 0041 keeps the first of twins already stored and renames or drops the rest', async () => {
    const { db } = t().database
    const migration = fs.readFileSync(
      path.resolve(import.meta.dirname, '../../db/migrations/0041_unique_names.sql'),
      'utf8',
    )
    await db.execute(sql`drop index categories_sibling_name_key, hot_words_word_key, vip_plans_active_name_key`)
    await db.execute(sql`delete from hot_words`)
    const [cat] = (
      await db.execute<{ id: number }>(
        sql`insert into categories (name) values ('旧区'), ('旧 区'), ('旧区') returning id`,
      )
    ).rows
    await db.execute(sql`insert into hot_words (word) values ('PS'), ('ps'), ('AE')`)
    const plans = (
      await db.execute<{ id: number }>(
        sql`insert into vip_plans (name, days, price_fen, active) values ('旧卡', 1, 1, true), ('旧卡', 1, 1, true), ('旧卡', 1, 1, false) returning id`,
      )
    ).rows
    for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement))
    const names = await db.execute<{ id: number; name: string }>(
      sql`select id, name from categories where name like '旧%' order by id`,
    )
    expect(names.rows.map((r) => r.name)).toEqual(['旧区', `旧 区（#${cat!.id + 1}）`, `旧区（#${cat!.id + 2}）`])
    const words = await db.execute<{ word: string }>(sql`select word from hot_words order by id`)
    expect(words.rows.map((r) => r.word)).toEqual(['PS', 'AE'])
    const kept = await db.execute<{ name: string }>(sql`select name from vip_plans where name like '旧卡%' order by id`)
    expect(kept.rows.map((r) => r.name)).toEqual(['旧卡', `旧卡（#${plans[1]!.id}）`, '旧卡'])
  })
})
