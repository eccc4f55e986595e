import { eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { upsert } from '#server/db/rows.ts'
import { siteSettings } from '#server/db/schema/settings.ts'

/** A setting's saved value, or null when operators never saved it. */
export async function findSetting(db: DbOrTx, key: string) {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.key, key))
  return row ?? null
}

/** Saves a setting (one row per key). */
export function saveSetting(db: DbOrTx, key: string, value: Record<string, unknown>, by: number, at: Date) {
  const set = { value, updatedBy: by, updatedAt: at }
  return upsert(db, siteSettings, { key, ...set }, { target: siteSettings.key, set })
}
