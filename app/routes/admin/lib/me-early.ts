import type { ConsoleMe } from '#shared/api/staff.ts'
import { api } from './client.ts'

// Who is signed in, asked as the console starts (console.tsx), while its chunks are still loading: the layout waits
// for the answer before it draws anything, so it should not be asked only once they have run. The first `me` query
// takes this request; later ones ask again.

let early: Promise<ConsoleMe> | null = null

/** Asks GET /api/admin/me now. */
export function askMeEarly() {
  early = api.get<ConsoleMe>('/admin/me')
  // Its failure (signed out, no network) is the query's to show when it takes the request.
  early.catch(() => {})
}

/** The request asked early, once; null after that, or when none was asked. */
export function takeEarlyMe(): Promise<ConsoleMe> | null {
  const request = early
  early = null
  return request
}
