import { describe, expect, it } from 'vitest'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { memberRoles, memberSummariesByIds } from './members.service.ts'

describe('members doors', () => {
  const database = useTestDatabase()

  it('gives nickname, avatar and phone of several members by id, in one query', async () => {
    const { db } = await database()
    const a = await makeMember(db)
    const b = await makeMember(db, 'staff')
    const found = await memberSummariesByIds(db, [a.id, b.id, a.id, 999_999])
    expect([...found.keys()].sort()).toEqual([a.id, b.id].sort())
    expect(found.get(a.id)).toEqual({
      nickname: expect.stringMatching(/^学员\d{4}$/) as string,
      avatarUrl: null,
      phone: expect.stringMatching(/^139\d{8}$/) as string,
    })
    expect(await memberSummariesByIds(db, [])).toEqual(new Map())
  })

  it('gives a member’s role, null for an unknown member', async () => {
    const { db } = await database()
    const staff = await makeMember(db, 'staff')
    expect(await memberRoles(db, staff.id)).toEqual(['operator'])
    expect(await memberRoles(db, 999_999)).toBeNull()
  })
})
