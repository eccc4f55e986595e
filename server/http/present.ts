// Rows as the API presents them. A row has camelCase fields and Date times; the API spells the same fields in
// snake_case with ISO-8601 times. `apiFields` does that for the fields a view copies as they are (a view still
// writes its renamed and computed fields itself), or all of them but some (`apiFieldsExcept`); `idsOf` gathers the ids a page of rows looks its related records
// up by (members, courses, orders), so a list stays two queries.

/** `createdAt` → `created_at`. */
type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S

/** A Date is sent as its ISO-8601 text (a nullable one stays nullable). */
type Sent<V> = V extends Date ? string : V

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** These fields of `row` under their API names (snake_case), times as ISO-8601 text. */
export function apiFields<T extends object, K extends keyof T & string>(row: T, keys: readonly K[]) {
  const view: Record<string, unknown> = {}
  for (const key of keys) {
    const value = row[key]
    view[snake(key)] = value instanceof Date ? value.toISOString() : value
  }
  return view as { [P in K as Snake<P>]: Sent<T[P]> }
}

/**
 * Every field of `row` but `omitted`, as apiFields gives them: for a view that shows the whole row. The route's
 * response schema is still the contract (it strips what it does not name).
 */
export function apiFieldsExcept<T extends object, K extends keyof T & string>(row: T, omitted: readonly K[]) {
  const keys = (Object.keys(row) as (keyof T & string)[]).filter((k) => !omitted.includes(k as K))
  return apiFields(row, keys as Exclude<keyof T & string, K>[])
}

/** The distinct ids `key` holds in these rows, nulls left out: what a batch lookup by ids is given. */
export function idsOf<T, K extends keyof T>(rows: readonly T[], key: K): NonNullable<T[K]>[] {
  const ids = new Set<NonNullable<T[K]>>()
  for (const row of rows) {
    const id = row[key]
    if (id !== null && id !== undefined) ids.add(id)
  }
  return [...ids]
}
