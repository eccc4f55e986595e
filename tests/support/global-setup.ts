import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { connectDatabase } from '#server/db/database.ts'
import { startEmbeddedPostgres } from '#server/db/embedded-postgres.ts'
import { freePort } from './free-port.ts'
import { TEMPLATE_DB, withDatabase } from './pg-url.ts'

/**
 * One PostgreSQL server for the whole run: the embedded one in a temporary folder, or TEST_DATABASE_URL's.
 * A template database is migrated once; each test file clones it (tests/support/database.ts).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL
  let stop = async () => {}
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-test-pg-'))
    fs.chmodSync(dir, 0o755) // the server runs as the postgres user when we are root
    const server = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort())
    adminUrl = server.url('postgres')
    stop = async () => {
      await server.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${TEMPLATE_DB} with (force)`)
  await admin.query(`create database ${TEMPLATE_DB}`)
  await admin.end()
  const templateUrl = withDatabase(adminUrl, TEMPLATE_DB)
  const template = await connectDatabase(templateUrl, 2)
  await template.close()

  project.provide('pgAdminUrl', adminUrl)
  return stop
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string
  }
}
