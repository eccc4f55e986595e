import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { AppError } from '#server/http/app-error.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { createAdmin } from './create-admin.ts'
import { memberRoles } from '#server/modules/members/members.service.ts'

describe('createAdmin (npm run admin:create)', () => {
  const database = useTestDatabase()

  it('creates a new member as admin', async () => {
    const { db } = await database()
    const admin = await createAdmin(db, { phone: ' 13800000001 ' })
    expect(admin).toMatchObject({ phone: '138****0001', nickname: '管理员', created: true })
    const [row] = await db.select().from(members).where(eq(members.id, admin.member_id))
    expect(row).toMatchObject({ phone: '13800000001' })
    expect(await memberRoles(db, admin.member_id)).toEqual(['admin'])
  })

  it('promotes the member who has the phone and keeps their nickname', async () => {
    const { db } = await database()
    const [existing] = await db.insert(members).values({ phone: '13800000002', nickname: '小王' }).returning()
    const admin = await createAdmin(db, { phone: '13800000002', nickname: '运营' })
    expect(admin).toMatchObject({ member_id: existing!.id, nickname: '小王', created: false })
    expect(await memberRoles(db, existing!.id)).toEqual(['admin'])
    expect((await createAdmin(db, { phone: '13800000002' })).member_id).toBe(existing!.id)
  })

  it('refuses a malformed phone', async () => {
    const { db } = await database()
    await expect(createAdmin(db, { phone: '12345' })).rejects.toBeInstanceOf(AppError)
  })
})
