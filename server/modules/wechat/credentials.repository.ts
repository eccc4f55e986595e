import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/database.ts'
import { wechatCredentials } from '#server/db/schema/wechat.ts'
import type { CredentialStore, SharedCredential } from '#server/integrations/wechat/credentials.ts'

/**
 * WeChat's shared credentials in PostgreSQL. A refresh runs in a transaction holding the advisory lock of its
 * name, so one process of the site asks WeChat while the others wait and then read what it stored.
 */
export function postgresCredentialStore(db: Db): CredentialStore {
  const select = (tx: Pick<Db, 'select'>, name: string) =>
    tx
      .select({ value: wechatCredentials.value, expiresAt: wechatCredentials.expiresAt })
      .from(wechatCredentials)
      .where(eq(wechatCredentials.name, name))
      .then((rows) => rows[0] ?? null)

  return {
    read: (name) => select(db, name),
    refresh: (name, usable, fetch) =>
      db.transaction(async (tx): Promise<SharedCredential> => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`wechat-credential:${name}`}, 0))`)
        const stored = await select(tx, name)
        if (usable(stored)) return stored!
        const fresh = await fetch()
        await tx
          .insert(wechatCredentials)
          .values({ name, value: fresh.value, expiresAt: fresh.expiresAt })
          .onConflictDoUpdate({
            target: wechatCredentials.name,
            set: { value: fresh.value, expiresAt: fresh.expiresAt, updatedAt: sql`now()` },
          })
        return fresh
      }),
  }
}
