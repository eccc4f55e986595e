import type { Db } from '#server/db/database.ts'
import type { RedeemCodes } from '#server/modules/redeem/redeem.service.ts'

/** What the redeem-code workflows are given (server/services-redeem.ts binds them). */
export interface RedeemDeps {
  db: Db
  now: () => Date
  codes: RedeemCodes
}
