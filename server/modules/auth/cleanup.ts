import type { FastifyBaseLogger } from 'fastify'
import type { DbOrTx } from '#server/db/database.ts'
import {
  pruneExpiredOauthStates,
  pruneExpiredPayOpenids,
  pruneUsedOauthCodes,
} from '#server/modules/wechat/wechat.service.ts'
import { every } from '#server/jobs/every.ts'
import { deleteOldLoginFailures, deleteOldSmsCodes } from './auth.repository.ts'

const HOUR_MS = 3600_000
const DAY_MS = 24 * HOUR_MS

/** How long sign-in records are kept, each longer than anything that still reads them. */
const SignInRetention = {
  /**
   * After its expiry a state is never accepted again. The per-address start limit counts states created in the
   * last 10 minutes (wechat.service.ts), which all expire later than this keeps them; the hour is a margin for the
   * clocks of several processes.
   */
  oauthStatesAfterExpiryMs: HOUR_MS,
  /** WeChat's codes live 5 minutes; a day after its use, the record of a code guards nothing. */
  oauthCodesUsedMs: DAY_MS,
  /**
   * The limits count codes from their creation: the day's back to Beijing midnight (under 24 hours), the hourly
   * ones an hour. Only dead codes go, whatever their age (deleteOldSmsCodes also checks the expiry).
   */
  smsCodesMs: 2 * DAY_MS,
  /** The day's failed-login lock looks back to Beijing midnight. */
  loginFailuresMs: 2 * DAY_MS,
  /** A JSAPI pay openid is used only until it expires (6 hours after the round trip); it goes right after. */
  payOpenidsAfterExpiryMs: 0,
} as const

/** How often a process runs the cleanup. */
const CLEANUP_INTERVAL_MS = 10 * 60_000

export interface CleanupOptions {
  /** Rows per DELETE: each statement locks at most this many rows, briefly. */
  batchSize: number
  /** Statements per table per round: a large backlog is worked off over several rounds. */
  maxBatches: number
}

const defaults: CleanupOptions = { batchSize: 1000, maxBatches: 100 }

async function inBatches(options: CleanupOptions, deleteBatch: (limit: number) => Promise<number>) {
  let total = 0
  for (let i = 0; i < options.maxBatches; i++) {
    const deleted = await deleteBatch(options.batchSize)
    total += deleted
    if (deleted < options.batchSize) break
  }
  return total
}

/**
 * One round of the cleanup: deletes expired OAuth states, old used-code records, old SMS codes, old failed
 * logins and expired WeChat Pay openids, each in batches of separate statements (no long transaction, no
 * table-wide lock). Several processes may run it at once: rows one is deleting are skipped by the others. Returns how many rows of each went.
 */
export async function pruneSignInRecords(db: DbOrTx, now: Date, options: Partial<CleanupOptions> = {}) {
  const o = { ...defaults, ...options }
  const ago = (ms: number) => new Date(now.getTime() - ms)
  return {
    oauthStates: await inBatches(o, (n) =>
      pruneExpiredOauthStates(db, ago(SignInRetention.oauthStatesAfterExpiryMs), n),
    ),
    oauthCodesUsed: await inBatches(o, (n) => pruneUsedOauthCodes(db, ago(SignInRetention.oauthCodesUsedMs), n)),
    smsCodes: await inBatches(o, (n) => deleteOldSmsCodes(db, ago(SignInRetention.smsCodesMs), now, n)),
    loginFailures: await inBatches(o, (n) => deleteOldLoginFailures(db, ago(SignInRetention.loginFailuresMs), n)),
    payOpenids: await inBatches(o, (n) => pruneExpiredPayOpenids(db, ago(SignInRetention.payOpenidsAfterExpiryMs), n)),
  }
}

/**
 * Runs the cleanup every `intervalMs` in this process (server/main.ts), the first time right after boot. The
 * server keeps no sign-in state in memory, so nothing else ever removes these rows. `stop()` waits for a running
 * round.
 */
export function startSignInCleanup(
  deps: { db: DbOrTx; now: () => Date },
  log: FastifyBaseLogger,
  intervalMs = CLEANUP_INTERVAL_MS,
) {
  return every(
    intervalMs,
    async () => {
      const r = await pruneSignInRecords(deps.db, deps.now())
      if (r.oauthStates + r.oauthCodesUsed + r.smsCodes + r.loginFailures + r.payOpenids > 0)
        log.info(r, 'sign-in records cleaned up')
    },
    (err) => log.error({ err }, 'sign-in cleanup failed'),
  )
}
