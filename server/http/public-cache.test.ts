import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it, vi } from 'vitest'
import {
  ALL_SESSIONS_TAG,
  changesPublicReads,
  clearAllCaches,
  dropTagged,
  DropsWhileLoading,
  onInvalidation,
  publicCache,
  SESSION_TAG_PREFIX,
} from './public-cache.ts'

describe('publicCache', () => {
  it('loads a key once for concurrent and later gets, until its time is up', async () => {
    const load = vi.fn(async (key: string) => ({ key }))
    const cache = publicCache({ max: 10, ttlMs: 40, load })
    const [a, b] = await Promise.all([cache.get('a'), cache.get('a')])
    expect(a).toBe(b)
    expect(await cache.get('a')).toBe(a)
    expect(load).toHaveBeenCalledTimes(1)
    await sleep(60)
    expect(await cache.get('a')).not.toBe(a)
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('keeps at most `max` entries, dropping the least recently used one only', async () => {
    const load = vi.fn(async (key: number) => ({ key }))
    const cache = publicCache({ max: 2, ttlMs: 60_000, load })
    await cache.get(1)
    await cache.get(2)
    await cache.get(1)
    await cache.get(3)
    expect(load).toHaveBeenCalledTimes(3)
    await cache.get(1)
    expect(load).toHaveBeenCalledTimes(3)
    await cache.get(2)
    expect(load).toHaveBeenCalledTimes(4)
  })

  it('forgets one key on delete, everything on clearAllCaches, and a failed load at once', async () => {
    let fail = true
    const load = vi.fn(async (key: string) => {
      if (key === 'bad' && fail) throw new Error('database down')
      return { key }
    })
    const cache = publicCache({ max: 10, ttlMs: 60_000, load })
    await expect(cache.get('bad')).rejects.toThrow('database down')
    fail = false
    expect(await cache.get('bad')).toEqual({ key: 'bad' })
    await cache.get('x')
    cache.delete('x')
    await cache.get('x')
    expect(load.mock.calls.filter(([k]) => k === 'x')).toHaveLength(2)
    clearAllCaches()
    await cache.get('bad')
    expect(load.mock.calls.filter(([k]) => k === 'bad')).toHaveLength(3)
  })

  it('loads every time with ttlMs 0', async () => {
    const load = vi.fn(async () => 'v')
    const cache = publicCache({ max: 10, ttlMs: 0, load })
    await cache.get('k')
    await cache.get('k')
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('drops only the entries carrying a tag a write names, and tags an entry again when it is reloaded', async () => {
    const teacherOf: Record<number, number> = { 1: 7, 2: 7, 3: 8 }
    const load = vi.fn(async (id: number) => ({ id, teacher: teacherOf[id]! }))
    const cache = publicCache({
      max: 10,
      ttlMs: 60_000,
      load,
      tagsOf: (v: { id: number; teacher: number }) => [`course:${v.id}`, `teacher:${v.teacher}`],
    })
    for (const id of [1, 2, 3]) await cache.get(id)
    dropTagged(['teacher:7'])
    expect(cache.size).toBe(1)
    for (const id of [1, 2, 3]) await cache.get(id)
    expect(load.mock.calls.map(([id]) => id)).toEqual([1, 2, 3, 1, 2])
    // Course 1 moved to teacher 8: its new entry answers to teacher 8, no longer to 7.
    teacherOf[1] = 8
    dropTagged(['course:1'])
    await cache.get(1)
    dropTagged(['teacher:7'])
    expect(cache.size).toBe(2)
    dropTagged(['teacher:8', 'unknown'])
    expect(cache.size).toBe(0)
  })

  it('does not keep a value whose tags a write named while it was loading', async () => {
    // The load reads the rows, then a write commits and is heard before the load answers.
    let title = 'old'
    let release = () => {}
    const load = vi.fn(async (id: number) => {
      const read = { id, title }
      if (id === 1 && title === 'old') await new Promise<void>((resolve) => (release = resolve))
      return read
    })
    const cache = publicCache({
      max: 10,
      ttlMs: 60_000,
      load,
      tagsOf: (v: { id: number }) => [`course:${v.id}`],
    })
    const loading = cache.get(1)
    const other = cache.get(2)
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2))
    title = 'new'
    dropTagged(['course:1'])
    release()
    // Those already waiting get what was read; the next read loads again.
    expect(await loading).toEqual({ id: 1, title: 'old' })
    expect(await other).toEqual({ id: 2, title: 'old' })
    expect(await cache.get(1)).toEqual({ id: 1, title: 'new' })
    // A write naming other tags, or none while nothing loads, drops nothing more.
    expect(await cache.get(2)).toEqual({ id: 2, title: 'old' })
    expect(load).toHaveBeenCalledTimes(3)
  })

  it('answers the callers of a load whose entry was cleared meanwhile, without keeping it', async () => {
    let release = () => {}
    let calls = 0
    const cache = publicCache({
      max: 10,
      ttlMs: 60_000,
      load: async (id: number) => {
        if (++calls === 1) await new Promise<void>((resolve) => (release = resolve))
        return { id, calls }
      },
      tagsOf: (v: { id: number }) => [`course:${v.id}`],
    })
    const loading = cache.get(1)
    await vi.waitFor(() => expect(calls).toBe(1))
    // The cache bus lost its connection (or the catalogue was reseeded): everything goes.
    clearAllCaches()
    release()
    expect(await loading).toEqual({ id: 1, calls: 1 })
    expect(await cache.get(1)).toEqual({ id: 1, calls: 2 })
    expect(await cache.get(1)).toEqual({ id: 1, calls: 2 })
  })

  it('tells a load what was dropped after it began, and forgets drops no running load needs', () => {
    const drops = new DropsWhileLoading<string>()
    drops.heard('before anything loads')
    // Loads overlapping one another without a pause, as under steady traffic: each sees only what came after it
    // began, and the log holds only what a running load still needs.
    let running = drops.begin()
    for (let i = 0; i < 1_000; i++) {
      drops.heard(`write ${i}`)
      const next = drops.begin()
      expect(drops.end(running)).toEqual([`write ${i}`])
      running = next
    }
    expect(drops.kept).toBe(0)
    drops.heard('last')
    expect(drops.end(running)).toEqual(['last'])
    expect(drops.kept).toBe(0)
  })

  it('passes no empty list of tags on (a cache bus heartbeat), and tells sessions’ tags from public reads', () => {
    const heard: (readonly string[])[] = []
    const stop = onInvalidation(
      (tags) => heard.push(tags),
      () => {},
    )
    try {
      dropTagged([])
      dropTagged(['course:1'])
      expect(heard).toEqual([['course:1']])
    } finally {
      stop()
    }
    expect(changesPublicReads([`${SESSION_TAG_PREFIX}ab12`])).toBe(false)
    expect(changesPublicReads([ALL_SESSIONS_TAG])).toBe(false)
    expect(changesPublicReads([`${SESSION_TAG_PREFIX}ab12`, 'course-lists'])).toBe(true)
  })

  it('bounds the entries by their total size, least recently used out first', async () => {
    const load = vi.fn(async (key: string) => key.repeat(4))
    const cache = publicCache({ max: 100, maxSize: 10, sizeOf: (v: string) => v.length, ttlMs: 60_000, load })
    await cache.get('a')
    await cache.get('b')
    expect(cache.size).toBe(2)
    await cache.get('c')
    expect(cache.size).toBe(2)
    await cache.get('b')
    expect(load).toHaveBeenCalledTimes(3)
    await cache.get('a')
    expect(load).toHaveBeenCalledTimes(4)
  })
})
