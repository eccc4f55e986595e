// <input type="datetime-local"> values in Beijing time and the API's ISO instants (the console's schedules).

const OFFSET_MS = 8 * 3600_000

/** "2026-12-01T09:00" (Beijing) from an ISO instant; '' for none. */
export function toLocalInput(iso: string | null | undefined) {
  if (!iso) return ''
  return new Date(new Date(iso).getTime() + OFFSET_MS).toISOString().slice(0, 16)
}

/** An ISO instant with +08:00 from a datetime-local value; null for ''. */
export function fromLocalInput(value: string | null | undefined) {
  return value ? `${value}:00+08:00` : null
}
