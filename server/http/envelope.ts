import { z } from 'zod'

/** The response body of every API call: `{ code, msg, data }` (spec section 7 and 8). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data })
}

/** An envelope with nothing in `data`: the client reads only code and msg. */
export const emptyEnvelope = envelope(z.object({}))

export function ok<T>(data: T, msg = 'ok') {
  return { code: 200, msg, data }
}
