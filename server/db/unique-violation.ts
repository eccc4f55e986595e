// A write refused by one named unique index: PostgreSQL's unique_violation (23505) with that constraint. Drizzle
// may wrap the driver's error, keeping it as `cause`.

/** The unique index `constraint` refused this write (`err` from an insert or update). */
export function violatesUnique(err: unknown, constraint: string): boolean {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 3; e = (e as { cause?: unknown }).cause, i++) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown }
    if (code === '23505' && name === constraint) return true
  }
  return false
}
