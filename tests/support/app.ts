import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { buildApp, type BuildOptions } from '#server/app.ts'
import { loadConfig, type Env } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import { createTestDatabase } from './database.ts'

export interface TestApp {
  app: FastifyInstance
  database: Database
  config: ReturnType<typeof loadConfig>
}

/**
 * Builds the API on a fresh database for this test file: `const t = useTestApp()` then `t().app.inject(...)`.
 * Options replace integrations (clock, SMS, WeChat) with test doubles.
 */
export function useTestApp(env: Partial<Env> = {}, options: Omit<BuildOptions, 'database'> = {}) {
  let state: TestApp | undefined
  beforeAll(async () => {
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env } as Record<
      string,
      string
    >)
    const database = await createTestDatabase()
    const app = await buildApp(config, { logger: false, ...options, database })
    await app.ready()
    state = { app, database, config }
  })
  afterAll(async () => {
    await state?.app.close()
    await state?.database.close()
  })
  return () => {
    if (!state) throw new Error('useTestApp(): the app is built in beforeAll')
    return state
  }
}
