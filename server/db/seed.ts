import type { FastifyBaseLogger } from 'fastify'
import type { Db } from './database.ts'

/** Seeds the demo content when the catalogue is empty. (The catalogue seed arrives with the catalogue module.) */
export async function seedIfEmpty(db: Db, log: FastifyBaseLogger) {
  void db
  log.debug('seed: nothing to do yet')
}
