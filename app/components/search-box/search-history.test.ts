import { describe, expect, it } from 'vitest'
import { memoryStore } from '#app/lib/browser-storage.ts'
import {
  addToHistory,
  clearHistory,
  HISTORY_KEY,
  HISTORY_MAX,
  normaliseKeyword,
  readHistory,
} from './search-history.ts'

describe('search history', () => {
  it('keeps the newest keyword first, once, at most ten', () => {
    const store = memoryStore()
    addToHistory('剪映', store)
    addToHistory('  PS   调色 ', store)
    expect(addToHistory('剪映', store)).toEqual(['剪映', 'PS 调色'])
    for (let i = 0; i < 12; i++) addToHistory(`词${i}`, store)
    const list = readHistory(store)
    expect(list).toHaveLength(HISTORY_MAX)
    expect(list[0]).toBe('词11')
    expect(addToHistory('   ', store)).toEqual(list)
  })

  it('reads a broken record as empty and clears', () => {
    const store = memoryStore()
    store.setItem(HISTORY_KEY, '{not json')
    expect(readHistory(store)).toEqual([])
    store.setItem(HISTORY_KEY, JSON.stringify(['a', 3, '', 'b']))
    expect(readHistory(store)).toEqual(['a', 'b'])
    clearHistory(store)
    expect(store.getItem(HISTORY_KEY)).toBeNull()
  })

  it('normalises a keyword like the API', () => {
    expect(normaliseKeyword('  剪映   入门 ')).toBe('剪映 入门')
    expect(normaliseKeyword(null)).toBe('')
    expect(normaliseKeyword('字'.repeat(60))).toHaveLength(50)
  })
})
