import { z } from 'zod'
import { listRoute } from '#server/http/admin-list.ts'
import { sendCsv } from '#server/http/csv.ts'
import { adminPlugin, apiPlugin } from '#server/http/route.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { createRedeemBatch } from '#server/use-cases/create-redeem-batch.ts'
import type { exchangeRedeemCode } from '#server/use-cases/exchange-redeem-code.ts'
import type { listExchangeRecords } from '#server/use-cases/list-exchange-records.ts'
import type { previewRedeemCode } from '#server/use-cases/preview-redeem-code.ts'
import type { revokeRedeemCode } from '#server/use-cases/revoke-redeem-code.ts'
import { ExchangeRecordQuery } from '#shared/api/exchange-records.ts'
import { IdParams } from '#shared/api/params.ts'
import {
  RedeemBatchCreate,
  RedeemBatchQuery,
  RedeemCodeInput,
  RedeemCodeQuery,
  RedeemCodeRevoke,
} from '#shared/api/redeem.ts'
import { groupCode } from './redeem.service.ts'
import { newBatchCsvRows, REDEEM_CODES_CSV_HEADER, type RedeemAdmin } from './redeem-admin.ts'
import {
  ExchangeRecordResponse,
  RedeemBatchResponse,
  RedeemBatchRow,
  RedeemCodeRow,
  RedeemPreviewResponse,
  RedeemResultResponse,
  RedeemRevokeResponse,
} from './redeem.schema.ts'

/** The workflows the learner's routes call (server/use-cases, bound in the composition root). */
interface RedeemRoutesOptions {
  redeem: {
    preview: Bound<typeof previewRedeemCode>
    exchange: Bound<typeof exchangeRedeemCode>
    records: (memberId: number, query: z.output<typeof ExchangeRecordQuery>) => ReturnType<typeof listExchangeRecords>
  }
}

const limitNote =
  ' Wrong codes (a typo or an unknown code) count against the member and the client address: after REDEEM_WRONG_PER_HOUR (10) in an hour, 429 with the minutes to wait (data.retry_after_seconds, Retry-After).'

/** Spec 7: GET /redeem_code, POST /redeem_code/exchange; and the member's exchange record (/order4). */
export const redeemRoutes = apiPlugin({ tags: ['redeem'], auth: 'required' }, (r, { redeem }: RedeemRoutesOptions) => {
  r.get(
    '/redeem_code',
    {
      summary: 'What a redeem code gives (course titles and whether the member owns them, or VIP days) and until when',
      description: `Does not use the code. data: the code as typed (any case, spaces or dashes).${limitNote}`,
      querystring: RedeemCodeInput,
      response: RedeemPreviewResponse,
    },
    async (request, memberId) => redeem.preview({ memberId, ip: request.ip }, request.query.data),
  )
  r.post(
    '/redeem_code/exchange',
    {
      summary: 'Use a redeem code: its courses are granted (or its VIP days added) at once',
      description: `A code whose courses the member owns already is not used (527).${limitNote}`,
      body: RedeemCodeInput,
      response: RedeemResultResponse,
      msg: '兑换成功',
    },
    async (request, memberId) => redeem.exchange({ memberId, ip: request.ip }, request.body.data),
  )
  r.get(
    '/exchange_records',
    {
      summary: "The member's exchange record (/order4): redeem codes and points exchanges, newest first",
      querystring: ExchangeRecordQuery,
      response: ExchangeRecordResponse,
    },
    async (request, memberId) => redeem.records(memberId, request.query),
  )
})

interface RedeemAdminOptions {
  redeemAdmin: RedeemAdmin & {
    create: Bound<typeof createRedeemBatch>
    revoke: Bound<typeof revokeRedeemCode>
  }
}

/** Redeem-code batches and codes in the operators' console (permission `redeem.manage`). */
export const adminRedeemRoutes = adminPlugin('redeem.manage', (r, { redeemAdmin }: RedeemAdminOptions) => {
  listRoute(r, '/admin/redeem/batches', {
    summary: 'Redeem-code batches by name / note and state, with how many codes were used and revoked',
    querystring: RedeemBatchQuery,
    row: RedeemBatchRow,
    list: redeemAdmin.batches,
  })

  r.raw.post(
    '/admin/redeem/batches',
    {
      stepUp: true,
      summary: 'Create a batch of up to 100,000 codes; answers its codes as a CSV file, the only time they are shown',
      description:
        'Needs a step-up proof (the answer is a sensitive export). The server keeps only an HMAC of each code.',
      body: RedeemBatchCreate,
      response: { 200: z.string().describe('text/csv') },
    },
    async (request, reply) => {
      const staffId = request.principal!.memberId
      const { batch, codes } = await redeemAdmin.create(staffId, request.body)
      void reply.header('x-redeem-batch-id', String(batch.id))
      return sendCsv(
        reply,
        `redeem-codes-${batch.id}`,
        REDEEM_CODES_CSV_HEADER,
        newBatchCsvRows(batch, codes, groupCode),
      )
    },
  )

  r.post(
    '/admin/redeem/batches/:id/disable',
    {
      summary: 'Disable a batch: its unused codes are refused from now on (what was granted stays)',
      params: IdParams,
      response: RedeemBatchResponse,
      msg: '已停用',
    },
    async ({ params }) => redeemAdmin.disable(params.id),
  )

  listRoute(r, '/admin/redeem/codes', {
    summary: "A batch's codes by serial and state, with who used each (never the code itself)",
    querystring: RedeemCodeQuery,
    row: RedeemCodeRow,
    list: (q) => redeemAdmin.codes(q.batch_id, q),
  })

  r.post(
    '/admin/redeem/codes/:id/revoke',
    {
      summary: 'Void a code; every use of it is revoked with what it granted (courses, VIP days)',
      params: IdParams,
      body: RedeemCodeRevoke,
      response: RedeemRevokeResponse,
      msg: '已作废',
    },
    async ({ params }, staffId) => redeemAdmin.revoke(staffId, params.id),
  )
})
