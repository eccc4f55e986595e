import { z } from 'zod'
import { emptyEnvelope, envelope } from '#server/http/envelope.ts'
import { adminPlugin } from '#server/http/route.ts'
import { HotWordBody, HotWordOrder } from '#shared/api/admin-hot-words.ts'
import { IdParams } from '#shared/api/params.ts'
import type { HotWordAdmin } from './catalogue.service.ts'

const HotWord = z.object({ id: z.number().int(), word: z.string(), sort: z.number().int() })
const HotWordResponse = envelope(HotWord)
const HotWordListResponse = envelope(z.object({ list: z.array(HotWord) }))

/** Hot search words in the operators' console (under /api/admin/hot-words). */
export const adminHotWordRoutes = adminPlugin(
  { read: 'catalogue.read', write: 'marketing.edit' },
  (r, { hotWords }: { hotWords: HotWordAdmin }) => {
    // Permission: operator.
    r.get('/admin/hot-words', { summary: 'Hot search words, in order', response: HotWordListResponse }, async () =>
      hotWords.list(),
    )
    r.post(
      '/admin/hot-words',
      { summary: 'Add a hot word at the end', body: HotWordBody, response: HotWordResponse },
      async ({ body }) => hotWords.create(body),
    )
    r.patch(
      '/admin/hot-words/:id',
      { summary: 'Change a hot word', params: IdParams, body: HotWordBody, response: HotWordResponse },
      async ({ params, body }) => hotWords.update(params.id, body),
    )
    r.delete(
      '/admin/hot-words/:id',
      { summary: 'Remove a hot word', params: IdParams, response: emptyEnvelope },
      async ({ params }) => hotWords.remove(params.id),
    )
    r.post(
      '/admin/hot-words/order',
      {
        summary: 'Put the hot words in this order (every word once)',
        body: HotWordOrder,
        response: HotWordListResponse,
      },
      async ({ body }) => hotWords.order(body),
    )
  },
)
