import { apiPlugin } from '#server/http/route.ts'
import type { SearchService } from './catalogue.service.ts'
import { SearchQuery, SearchResponse } from './search.schema.ts'

/** Course search (spec 7: GET /searchCourse; the hot words are the catalogue's GET /hotWords). */
export const searchRoutes = apiPlugin(
  { tags: ['search'], token: false },
  (r, { search }: { search: SearchService }) => {
    r.get(
      '/searchCourse',
      {
        summary:
          'Search published courses by title, teacher name and category name; title matches first; with highlight ranges',
        description:
          'Every word of the keyword (split on spaces) must match. Matching is a case-insensitive substring match (Chinese needs no word splitting), served by pg_trgm indexes for words of 3+ characters; 1–2 character words scan the catalogue. A keyword that finds nothing is searched again with its misspelt words corrected (`corrected` says what was searched).',
        querystring: SearchQuery,
        response: SearchResponse,
      },
      async (request) => search.search(request.query),
    )
  },
)
