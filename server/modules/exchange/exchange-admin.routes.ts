import { listedRecords, listRoute } from '#server/http/admin-list.ts'
import { adminPlugin } from '#server/http/route.ts'
import { IdParams } from '#shared/api/params.ts'
import {
  ExchangeRecordQuery,
  ExchangeRecordRevoke,
  ExchangeSkuCreate,
  ExchangeSkuEdit,
  ExchangeSkuQuery,
} from '#shared/api/exchange.ts'
import { ExchangeRecordResponse, ExchangeRecordRow, ExchangeSkuRow } from './exchange.schema.ts'
import type { ExchangeAdmin } from './exchange.service.ts'

export interface ExchangeAdminOptions {
  exchangeAdmin: ExchangeAdmin
  /** revoke-platform-order.ts `revokeExchangeRecord`, bound. */
  revokeRecord: (id: number, reason: string) => Promise<{ revoked: number; voucher_returned: boolean }>
}

/**
 * Platform exchange in the operators' console (issue 14 §2): which platform SKU grants which course or VIP days,
 * and every exchange made, with the revocation of one. Every change goes to the staff action log.
 */
export const adminExchangeRoutes = adminPlugin(
  { read: 'exchange.read', write: 'exchange.manage' },
  (r, { exchangeAdmin, revokeRecord }: ExchangeAdminOptions) => {
    listedRecords(r, '/admin/exchange/skus', exchangeAdmin.skus, {
      summary: 'Platform SKUs mapped to courses or VIP days (paged, sorted)',
      querystring: ExchangeSkuQuery,
      row: ExchangeSkuRow,
      create: { summary: 'Map a platform SKU to a course or VIP days', body: ExchangeSkuCreate },
      edit: { summary: 'Change what a SKU grants (earlier exchanges keep theirs)', body: ExchangeSkuEdit },
      remove: { summary: 'Delete a SKU mapping (later exchanges of it are refused)', answersRecord: true },
    })
    listRoute(r, '/admin/exchange/records', {
      summary: 'Exchanges of platform orders, with the member and what each granted (paged, sorted)',
      querystring: ExchangeRecordQuery,
      row: ExchangeRecordRow,
      list: (q) => exchangeAdmin.records(q),
    })
    r.post(
      '/admin/exchange/records/:id/revoke',
      {
        summary: 'Take back what one exchange granted, with a reason (a Douyin voucher within an hour is returned)',
        params: IdParams,
        body: ExchangeRecordRevoke,
        response: ExchangeRecordResponse,
      },
      async (request) => revokeRecord(request.params.id, request.body.reason),
    )
  },
)
