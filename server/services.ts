import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'

/** Outside systems and the clock, passed in so tests and the demo can put simulators in their place. */
export interface Integrations {
  now: () => Date
}

export function defaultIntegrations(_config: Config): Integrations {
  return { now: () => new Date() }
}

/**
 * The services every route and page use. Each domain adds its own here; routes and loaders reach them through
 * this object, never by importing repositories.
 */
export function createServices(config: Config, db: Db, integrations: Integrations) {
  return {
    config,
    db,
    now: integrations.now,
  }
}

export type Services = ReturnType<typeof createServices>
