import { useMemo, useSyncExternalStore } from 'react'
import { local, type KeyValueStore } from '#app/lib/browser-storage.ts'

/** The search page's history, newest first, in this browser only (spec: /search keeps local history). */
export const HISTORY_KEY = 'zx_search_history'
export const HISTORY_MAX = 10

/** The words of a stored record; a broken record reads as empty. */
function parseHistory(raw: string | null): string[] {
  try {
    const parsed = JSON.parse(raw || '[]') as unknown
    return Array.isArray(parsed)
      ? parsed.filter((w): w is string => typeof w === 'string' && w.length > 0).slice(0, HISTORY_MAX)
      : []
  } catch {
    return []
  }
}

/** The stored words, newest first. */
export function readHistory(store: KeyValueStore = local): string[] {
  return parseHistory(store.getItem(HISTORY_KEY))
}

/** Puts a keyword first (once), keeping at most HISTORY_MAX; answers the new list. */
export function addToHistory(keyword: string, store: KeyValueStore = local): string[] {
  const word = keyword.trim().replace(/\s+/g, ' ')
  if (!word) return readHistory(store)
  const next = [word, ...readHistory(store).filter((w) => w !== word)].slice(0, HISTORY_MAX)
  store.setItem(HISTORY_KEY, JSON.stringify(next))
  announceHistoryChange()
  return next
}

export function clearHistory(store: KeyValueStore = local): void {
  store.removeItem(HISTORY_KEY)
  announceHistoryChange()
}

/** A keyword as the search API takes it: trimmed, single spaces, at most 50 characters. */
export function normaliseKeyword(raw: string | null | undefined): string {
  return (raw ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)
}

const CHANGED = 'zx-search-history'

function subscribe(listener: () => void) {
  window.addEventListener(CHANGED, listener)
  window.addEventListener('storage', listener)
  return () => {
    window.removeEventListener(CHANGED, listener)
    window.removeEventListener('storage', listener)
  }
}

/** Tells the history hooks on this page that the stored list changed. */
function announceHistoryChange() {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CHANGED))
}

/** The stored history for a component: empty in the server render and hydration, then this browser's list. */
export function useSearchHistory(): string[] {
  const raw = useSyncExternalStore(
    subscribe,
    () => local.getItem(HISTORY_KEY) ?? '',
    () => '',
  )
  // Parsed from the raw text, so the list keeps its identity until the text changes.
  return useMemo(() => parseHistory(raw), [raw])
}
