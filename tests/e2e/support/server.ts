import type { TestProject } from 'vitest/node'
import { startServer } from '#tests/support/spawn-server.ts'

/** Starts `server/main.ts` (production build, demo mode, fresh data folder) for the browser journeys. */
export default async function setup(project: TestProject) {
  // Every journey signs in from 127.0.0.1: the per-address SMS limit is for real networks. The platform sync runs
  // every 10 s, so an order bought on the Douyin simulator reaches /ke2 within a journey.
  const server = await startServer({
    name: 'zixue-e2e',
    logToFile: true,
    env: { SMS_PER_IP_PER_HOUR: '10000', PLATFORM_SYNC_SECONDS: '10' },
  })
  project.provide('baseUrl', server.baseUrl)
  project.provide('serverLog', server.logFile!)
  // The embedded server's own database, for journeys that act as an operator would with `npm run admin:create`.
  project.provide('databaseUrl', server.databaseUrl)
  return server.stop
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    serverLog: string
    databaseUrl: string
  }
}
