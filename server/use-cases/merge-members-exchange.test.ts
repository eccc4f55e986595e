import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { exchangeRecords } from '#server/db/schema/exchange.ts'
import { redeemBatches, redeemCodes, redeemUses } from '#server/db/schema/redeem.ts'
import { memberExchangeRecords } from '#server/modules/exchange/exchange.service.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { mergeMembers } from './merge-members.ts'

/** Merging two members (bind phone) takes the absorbed member's redeem code uses and platform exchanges along. */
describe('merging members moves their redeem code uses and exchanged platform orders', () => {
  const t = useTestApp()

  it('gives the survivor the absorbed member’s redeem uses and exchange records, and logs the counts', async () => {
    const { db } = t().database
    const survivor = await makeMember(db)
    // A WeChat-only member (no phone) is what binding a phone merges into a phone member.
    const absorbed = (
      await db.execute<{ id: number }>(
        sql`insert into members (nickname, wx_openid) values ('微信用户', 'o_merge_exchange') returning id`,
      )
    ).rows[0]!
    const course = await makeCourse(db)
    const now = new Date()
    const [batch] = await db
      .insert(redeemBatches)
      .values({
        name: '书店渠道',
        courseIds: [course],
        codeCount: 1,
        validFrom: now,
        validUntil: new Date(now.getTime() + 86_400_000),
        createdAt: now,
      })
      .returning()
    const [code] = await db
      .insert(redeemCodes)
      .values({ batchId: batch!.id, serial: 1, codeHash: 'merge-test-hash', uses: 1 })
      .returning()
    await db
      .insert(redeemUses)
      .values({ codeId: code!.id, batchId: batch!.id, memberId: absorbed.id, courseIds: [course], usedAt: now })
    await db.insert(exchangeRecords).values({
      platform: 'douyin_shop',
      orderId: '6900000000000000001',
      lineId: '6900000000000000002',
      skuId: 'DY-SKU-1001',
      productName: 'PS 课',
      memberId: absorbed.id,
      courseId: course,
      status: 'granted',
      grantedAt: now,
    })

    const moved = await db.transaction((tx) =>
      mergeMembers(tx, { survivorId: survivor.id, absorbedId: absorbed.id, reason: 'bind_phone', now }),
    )
    expect(moved).toMatchObject({ redeem_uses: 1, exchange_records: 1 })
    const uses = await db.select().from(redeemUses).where(eq(redeemUses.batchId, batch!.id))
    expect(uses.map((u) => u.memberId)).toEqual([survivor.id])
    expect((await memberExchangeRecords(db, survivor.id)).map((r) => r.order_id)).toEqual(['6900000000000000001'])
    expect(await memberExchangeRecords(db, absorbed.id)).toEqual([])
    const log = await db.execute<{ moved: Record<string, number> }>(
      sql`select moved from member_merges where absorbed_id = ${absorbed.id}`,
    )
    expect(log.rows[0]!.moved).toMatchObject({ redeem_uses: 1, exchange_records: 1 })
  })
})
