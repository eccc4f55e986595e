import { z } from 'zod'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'

// The one codec for the opaque `next_cursor` of keyset-paged lists: a JSON tuple in base64url. Clients pass it
// back untouched; on the way in it is checked against the list's own tuple shape, so a cursor from another list
// (or a tampered one) answers 400 instead of reaching SQL.

/** Encodes the last row's sort key (e.g. `[sort, key, id]`) as the next page's cursor. */
export function encodeCursor(parts: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url')
}

/** Decodes a cursor made by `encodeCursor`, or throws 400 (`badCursor`) with `data.field` "cursor". */
export function decodeCursor<T>(text: string, shape: z.ZodType<T>): T {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw badCursor()
  }
  const result = shape.safeParse(parsed)
  if (!result.success) throw badCursor()
  return result.data
}

/** A page's place in a list the client cannot have been given: a stale or damaged link, so a reload fixes it. */
export function badCursor() {
  return new AppError(Codes.BadRequest, '翻页位置无效，请刷新后重试', { field: 'cursor' })
}

/** A row id inside a cursor: a positive int4. */
export const cursorId = z.number().int().min(1).max(2_147_483_647)

/**
 * One page of a list paged by row id, read with one row more than `limit` (that row only says another page
 * follows): the first `limit` rows, and the id the next page continues before (null on the last page).
 */
export function pageById<T extends { id: number }>(rows: T[], limit: number) {
  const page = rows.slice(0, limit)
  return { page, nextCursor: rows.length > limit ? page[page.length - 1]!.id : null }
}
