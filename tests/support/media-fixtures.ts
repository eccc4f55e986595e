import type { Db } from '#server/db/database.ts'
import { categories, courses, videos } from '#server/db/schema/catalogue.ts'
import { memberRoles, members } from '#server/db/schema/members.ts'
import type { StaffRole } from '#shared/staff/roles.ts'
import { issueSession } from '#server/modules/sessions/session.service.ts'

// Small factories for catalogue rows and members, for the media, entitlement and admin tests.

let categoryCounter = 0

/** A top-level category; its default name differs on each call (siblings never share a name). */
export async function makeCategory(db: Db, name = `软件${++categoryCounter}`) {
  const [row] = await db.insert(categories).values({ name }).returning({ id: categories.id })
  return row!.id
}

export async function makeCourse(db: Db, values: Partial<typeof courses.$inferInsert> & { categoryId?: number } = {}) {
  const categoryId = values.categoryId ?? (await makeCategory(db))
  const [row] = await db
    .insert(courses)
    .values({ type: 'series', title: '测试课程', coverUrl: '/demo/cover.webp', priceFen: 9900, ...values, categoryId })
    .returning({ id: courses.id })
  return row!.id
}

export async function makeVideo(db: Db, courseId: number, values: Partial<typeof videos.$inferInsert> = {}) {
  const [row] = await db
    .insert(videos)
    .values({ courseId, title: '第 1 课', ...values })
    .returning({ id: videos.id })
  return row!.id
}

let phoneCounter = 0

/** A member with a live session: `{ id, token, headers }` where headers carry ZXB-Token. */
/** Gives a member these staff roles (the member_roles table; shared/staff/roles.ts). */
export async function grantRoles(db: Db, memberId: number, roles: readonly StaffRole[]) {
  if (roles.length)
    await db
      .insert(memberRoles)
      .values(roles.map((role) => ({ memberId, role })))
      .onConflictDoNothing()
}

/**
 * A member with a live session: `{ id, token, headers }` where headers carry ZXB-Token. `staff` is an operator,
 * `admin` an admin; or name the staff roles.
 */
export async function makeMember(
  db: Db,
  role: 'member' | 'staff' | 'admin' | readonly StaffRole[] = 'member',
  now = new Date(),
) {
  phoneCounter++
  const phone = `139${String(process.pid % 10000).padStart(4, '0')}${String(phoneCounter).padStart(4, '0')}`
  const nickname = `学员${phone.slice(-4)}`
  const [row] = await db.insert(members).values({ phone, nickname }).returning({ id: members.id })
  await grantRoles(
    db,
    row!.id,
    role === 'member' ? [] : role === 'staff' ? ['operator'] : role === 'admin' ? ['admin'] : role,
  )
  const { token } = await issueSession(db, row!.id, 2, now)
  return { id: row!.id, phone, nickname, token, headers: { 'zxb-token': token } }
}

/** A multipart/form-data body with one file part, for app.inject. */
export function multipartFile(
  data: Buffer,
  filename: string,
  contentType = 'application/octet-stream',
  field = 'file',
) {
  const boundary = `----zixue${Math.random().toString(16).slice(2)}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
