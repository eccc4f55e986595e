import { z } from 'zod'
import { emptyEnvelope, envelope, listEnvelope } from '#server/http/envelope.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { HotWordBody, HotWordOrder } from '#shared/api/admin-hot-words.ts'
import type { HotWordAdmin } from './catalogue.service.ts'

const HotWord = z.object({ id: z.number().int(), word: z.string(), sort: z.number().int() })
const HotWordResponse = envelope(HotWord)
const HotWordListResponse = listEnvelope(HotWord)

/** Hot search words in the operators' console (under /api/admin/hot-words). */
export const adminHotWordRoutes = adminPlugin(GroupAccess.storefront, (r, { hotWords }: { hotWords: HotWordAdmin }) => {
  // Permission: operator.
  r.records('/admin/hot-words', {
    response: HotWordResponse,
    list: { summary: 'Hot search words, in order', response: HotWordListResponse, handler: () => hotWords.list() },
    create: { summary: 'Add a hot word at the end', body: HotWordBody, handler: (body) => hotWords.create(body) },
    edit: { summary: 'Change a hot word', body: HotWordBody, handler: (id, body) => hotWords.update(id, body) },
    remove: { summary: 'Remove a hot word', response: emptyEnvelope, handler: (id) => hotWords.remove(id) },
    order: {
      summary: 'Put the hot words in this order (every word once)',
      body: HotWordOrder,
      handler: (body) => hotWords.order(body),
    },
  })
})
