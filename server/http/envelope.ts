import { z } from 'zod'

/** The response body of every API call: `{ code, msg, data }` (spec section 7 and 8). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data })
}

/** An envelope whose `data` is `{ list }`: every row, in order (a whole list, not a page). */
export function listEnvelope<T extends z.ZodType>(row: T) {
  return envelope(z.object({ list: z.array(row) }))
}

/** One page of a newest-first list: the rows, and the cursor of the next page (null on the last). */
export function cursorPage<T extends z.ZodType>(row: T) {
  return z.object({ list: z.array(row), next_cursor: z.number().int().nullable() })
}

/** An envelope with nothing in `data`: the client reads only code and msg. */
export const emptyEnvelope = envelope(z.object({}))

export function ok<T>(data: T, msg = 'ok') {
  return { code: 200, msg, data }
}
