import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import { createRedeemAdmin } from '#server/modules/redeem/redeem-admin.ts'
import { createRedeemCodes } from '#server/modules/redeem/redeem.service.ts'
import { createRedeemBatch } from '#server/use-cases/create-redeem-batch.ts'
import { exchangeRedeemCode } from '#server/use-cases/exchange-redeem-code.ts'
import { exchangeRecordSources, listExchangeRecords } from '#server/use-cases/list-exchange-records.ts'
import { previewRedeemCode } from '#server/use-cases/preview-redeem-code.ts'
import type { RedeemDeps } from '#server/use-cases/redeem-deps.ts'
import { revokeRedeemCode } from '#server/use-cases/revoke-redeem-code.ts'
import type { Attempt } from '#server/modules/redeem/redeem.service.ts'
import type { RedeemBatchCreate } from '#shared/api/redeem.ts'

/**
 * Redeem codes in the composition root (server/services.ts): the redeem module's door and the workflows of
 * server/use-cases bound to it, under the names the routes use: `redeem` (the learner's preview, exchange and
 * exchange record) and `redeemAdmin` (the console's batches and codes).
 */
export function createRedeemServices(input: { db: Db; config: Config; now: () => Date }) {
  const { db, now } = input
  const codes = createRedeemCodes(input.config.redeem)
  const deps: RedeemDeps = { db, now, codes }
  const sources = exchangeRecordSources(codes)
  return {
    redeem: {
      preview: (who: Attempt, code: string) => previewRedeemCode(deps, who, code),
      exchange: (who: Attempt, code: string) => exchangeRedeemCode(deps, who, code),
      records: (memberId: number, query: { cursor?: string | undefined; limit: number }) =>
        listExchangeRecords({ db, sources }, memberId, query),
    },
    redeemAdmin: {
      ...createRedeemAdmin({ db, now, hashOf: codes.hashOf }),
      create: (staffId: number, body: RedeemBatchCreate) => createRedeemBatch(deps, staffId, body),
      revoke: (staffId: number, codeId: number) => revokeRedeemCode(deps, staffId, codeId),
    },
  }
}
