import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { connectDatabase, type Database } from '#server/db/database.ts'
import { startEmbeddedPostgres, type EmbeddedServer } from '#server/db/embedded-postgres.ts'
import { localStorage } from '#server/integrations/storage/local.ts'
import type { Storage } from '#server/integrations/storage/storage.ts'
import { readinessChecks } from './health.ts'
import { useTestApp } from '#tests/support/app.ts'
import { freePort } from '#tests/support/free-port.ts'

interface Health {
  code: number
  msg: string
  data: { checks?: Record<string, string> }
}

describe('GET /api/health/live and /api/health/ready, on a database of their own that the test stops', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-health-'))
  fs.chmodSync(dir, 0o755)
  let server: EmbeddedServer
  let database: Database
  let app: FastifyInstance

  beforeAll(async () => {
    server = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort())
    const admin = new pg.Client({ connectionString: server.url('postgres') })
    await admin.connect()
    await admin.query('create database zixue')
    await admin.end()
    database = await connectDatabase(server.url('zixue'), 4)
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: dir })
    app = await buildApp(config, { database, logger: false })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await database?.close().catch(() => {})
    await server?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url })
    return { status: res.statusCode, body: res.json<Health>() }
  }

  it('answers ready with every check ok, and /api/health the same', async () => {
    const ready = await get('/api/health/ready')
    expect(ready).toEqual({
      status: 200,
      body: { code: 200, msg: 'ok', data: { checks: { database: 'ok', migrations: 'ok', storage: 'ok' } } },
    })
    expect(await get('/api/health')).toEqual(ready)
    expect(await get('/api/health/live')).toEqual({ status: 200, body: { code: 200, msg: 'ok', data: {} } })
  })

  it('answers 503 when the database does not answer within a second', async () => {
    const blocker = await database.pool.connect()
    try {
      await blocker.query('begin')
      await blocker.query('lock table drizzle.__drizzle_migrations in access exclusive mode')
      const ready = await get('/api/health/ready')
      expect(ready.status).toBe(503)
      expect(ready.body.code).toBe(503)
      expect(ready.body.data.checks).toMatchObject({ database: 'timeout', storage: 'ok' })
      expect(ready.body.msg).toContain('database timeout')
      expect((await get('/api/health/live')).status).toBe(200)
    } finally {
      await blocker.query('rollback')
      blocker.release()
    }
    expect((await get('/api/health/ready')).status).toBe(200)
  })

  it('answers 503 when the database lacks a migration this code carries', async () => {
    const { rows } = await database.pool.query<{ id: number; hash: string; created_at: string }>(
      'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning id, hash, created_at',
    )
    try {
      const ready = await get('/api/health/ready')
      expect(ready.status).toBe(503)
      expect(ready.body.data.checks).toEqual({ database: 'ok', migrations: 'behind', storage: 'ok' })
    } finally {
      const r = rows[0]!
      await database.pool.query('insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)', [
        r.id,
        r.hash,
        r.created_at,
      ])
    }
    expect((await get('/api/health/ready')).status).toBe(200)
  })

  it('answers 503 with the database stopped, while live still answers 200', async () => {
    await server.stop()
    const ready = await get('/api/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.data.checks).toMatchObject({ database: 'unreachable', storage: 'ok' })
    expect(ready.body.msg).toContain('database unreachable')
    const health = await get('/api/health')
    expect(health.status).toBe(503)
    expect((await get('/api/health/live')).status).toBe(200)
  })
})

describe('GET /api/health/ready with a media store that refuses writes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-health-store-'))
  const refusing: Storage = {
    ...localStorage({ root: dir, publicPrefix: null }),
    put: () => Promise.reject(new Error('EROFS: read-only file system')),
  }
  const t = useTestApp(
    {},
    { integrations: { storage: { public: localStorage({ root: dir, publicPrefix: '/media/' }), private: refusing } } },
  )
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('answers 503 naming storage', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/health/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json<Health>().data.checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'not writable' })
  })
})

describe('the storage probe', () => {
  it('writes at the top level of a store, so one instance removing its probe cannot pull a folder from under another', async () => {
    const keys: string[] = []
    const recording: Storage = {
      ...localStorage({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-health-keys-')), publicPrefix: null }),
      put: async (key) => {
        keys.push(key)
        return { size: 0 }
      },
      delete: async (key) => void keys.push(key),
    }
    const checks = readinessChecks({
      pool: { query: async () => ({ rows: [] }) } as never,
      stores: { public: recording, private: recording },
      log: { warn: () => {} },
    })
    expect(await checks.storage!()).toBe('ok')
    expect(keys).toHaveLength(4)
    for (const key of keys) expect(key).not.toContain('/')
  })
})
