import { eq } from 'drizzle-orm'
import type { Env } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import { members } from '#server/db/schema/members.ts'
import { useTestApp } from '#tests/support/app.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import type { FastifyInstance } from 'fastify'

/** The API on a fresh database with the Douyin simulator mounted and every adapter call routed through app.inject. */
export function useExchangeApp(env: Partial<Env> = {}) {
  const holder: { t?: () => { app: FastifyInstance } } = {}
  const t = useTestApp(
    { PLATFORM_SYNC: 'false', PAYMENT_SWEEPS: 'false', ...env },
    { integrations: { platformFetch: injectFetch(() => holder.t!().app) } },
  )
  holder.t = t
  return t
}

export interface Res<T = Record<string, unknown>> {
  code: number
  msg: string
  data: T
}

/** A member with a session and their phone. */
export async function memberWithPhone(db: Db, role: Parameters<typeof makeMember>[1] = 'member') {
  const m = await makeMember(db, role)
  const [row] = await db.select({ phone: members.phone }).from(members).where(eq(members.id, m.id))
  return { ...m, phone: row!.phone! }
}

/** A published course with a title. */
export const titledCourse = (db: Db, title: string) => makeCourse(db, { title })
