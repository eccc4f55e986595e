import crypto from 'node:crypto'
import pg from 'pg'
import { afterAll, inject } from 'vitest'
import { connectDatabase, type Database } from '#server/db/database.ts'

import { TEMPLATE_DB, withDatabase } from './pg-url.ts'

/**
 * A fresh, migrated database for the calling test file, cloned from the run's template and dropped afterwards,
 * with a pool of `poolSize` connections.
 */
export async function createTestDatabase(poolSize = 30): Promise<Database> {
  const adminUrl = inject('pgAdminUrl')
  const name = `zixue_t_${crypto.randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`)
  } finally {
    await admin.end()
  }
  const database = await connectDatabase(withDatabase(adminUrl, name), poolSize, async () => {
    const dropper = new pg.Client({ connectionString: adminUrl })
    await dropper.connect()
    await dropper.query(`drop database if exists ${name} with (force)`)
    await dropper.end()
  })
  return database
}

/** Creates the file's database before its tests (a pool of `poolSize` connections) and drops it after them. */
export function useTestDatabase(poolSize?: number) {
  // The promise, not the database, is remembered: callers racing on the first call (beforeAll hooks of several
  // describe blocks, Promise.all in a test) share one database instead of each creating one.
  let database: Promise<Database> | undefined
  afterAll(async () => {
    await (await database)?.close()
  })
  return () => (database ??= createTestDatabase(poolSize))
}
