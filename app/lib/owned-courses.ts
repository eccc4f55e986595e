import { useEffect, useReducer } from 'react'
import { api } from './api.ts'
import { useAuth } from './use-auth.ts'

/**
 * Which courses the signed-in member has bought, for the cards of any screen (lists, search, favourites, the
 * course page): the pages are rendered and cached for everyone, so the member's own state is asked in the browser.
 * The cards mounted in one tick are asked in one call (GET /api/course/owned?ids=…, at most 100 ids a call); an
 * answer is kept for a minute, and forgotten when the member signs in or out.
 */

const KEEP_MS = 60_000
const MAX_IDS = 100

interface Known {
  owned: boolean
  at: number
}

const known = new Map<number, Known>()
const listeners = new Set<() => void>()
let knownFor: string | null = null
let queued = new Set<number>()
let flushing = false

function notify() {
  for (const listener of listeners) listener()
}

function flush(token: string) {
  flushing = false
  const ids = [...queued]
  queued = new Set()
  for (let i = 0; i < ids.length; i += MAX_IDS) {
    const batch = ids.slice(i, i + MAX_IDS)
    api
      .get<{ owned: number[] }>('/course/owned', { ids: batch.join(',') }, { quiet: true })
      .then(({ owned }) => {
        if (knownFor !== token) return
        const yes = new Set(owned)
        const at = Date.now()
        for (const id of batch) known.set(id, { owned: yes.has(id), at })
        notify()
      })
      .catch(() => {})
  }
}

function ask(id: number, token: string) {
  if (knownFor !== token) {
    known.clear()
    knownFor = token
  }
  const entry = known.get(id)
  if (entry && Date.now() - entry.at < KEEP_MS) return
  queued.add(id)
  if (!flushing) {
    flushing = true
    queueMicrotask(() => flush(token))
  }
}

/** Forget what is known (after a purchase or a refund made on this page). */
export function forgetOwnedCourses() {
  known.clear()
  notify()
}

/**
 * True once the server said the signed-in member has bought this course; false meanwhile and for visitors. Null:
 * the caller knows already (its answer said), nothing is asked.
 */
export function useOwnedCourse(courseId: number | null): boolean {
  // No useHydrated(): the login state is signed out during hydration, and stays the same object for a visitor, so
  // the cards of a visitor's page are not rendered a second time after hydration.
  const { token } = useAuth()
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  useEffect(() => {
    if (!token || courseId === null) return
    listeners.add(rerender)
    ask(courseId, token)
    return () => {
      listeners.delete(rerender)
    }
  }, [token, courseId])
  return token !== null && knownFor === token && courseId !== null && known.get(courseId)?.owned === true
}
