import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestDatabase } from '#tests/support/database.ts'
import { listenForInvalidations, publishInvalidation, type CacheBusListener } from './cache-bus.ts'

const database = useTestDatabase()
const listeners: CacheBusListener[] = []
afterAll(async () => {
  for (const l of listeners) await l.close()
})

/** Waits until `check` holds (the bus is asynchronous), at most `ms`. */
async function until(check: () => boolean, ms = 3_000) {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) await sleep(10)
  return check()
}

async function listener(retryMs = 50) {
  const { url } = await database()
  const heard: string[][] = []
  let gaps = 0
  const log = { warn: () => {} }
  const l = await listenForInvalidations({ url, onTags: (t) => heard.push(t), onGap: () => gaps++, log, retryMs })
  listeners.push(l)
  return { heard, gaps: () => gaps, close: () => l.close() }
}

describe('cache bus (LISTEN/NOTIFY)', () => {
  it('delivers the tags a write publishes to every listener, only once the transaction commits', async () => {
    const { db } = await database()
    const [a, b] = [await listener(), await listener()]
    await publishInvalidation(db, ['course:1', 'course-lists'])
    expect(await until(() => a.heard.length === 1 && b.heard.length === 1)).toBe(true)
    expect(b.heard[0]).toEqual(['course:1', 'course-lists'])

    await expect(
      db.transaction(async (tx) => {
        await publishInvalidation(tx, ['course:2'])
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await db.transaction(async (tx) => {
      await publishInvalidation(tx, ['course:3'])
      await sleep(100)
      // Not yet: NOTIFY goes out at commit.
      expect(a.heard).toHaveLength(1)
    })
    expect(await until(() => a.heard.length === 2)).toBe(true)
    expect(a.heard[1]).toEqual(['course:3'])
  })

  it('splits a long list of tags into notifications under the payload limit, losing none', async () => {
    const { db } = await database()
    const l = await listener()
    const tags = Array.from({ length: 2_000 }, (_, i) => `course:${100_000 + i}`)
    await publishInvalidation(db, tags)
    expect(await until(() => l.heard.flat().length === tags.length)).toBe(true)
    expect(l.heard.length).toBeGreaterThan(1)
    expect(l.heard.flat()).toEqual(tags)
  })

  it('after losing its connection, listens again and reports the gap (caches then clear)', async () => {
    const { db, pool } = await database()
    const l = await listener()
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'zixue-cache-bus' and datname = current_database()`,
    )
    expect(await until(() => l.gaps() >= 1)).toBe(true)
    await publishInvalidation(db, ['teacher:9'])
    expect(await until(() => l.heard.some((t) => t[0] === 'teacher:9'))).toBe(true)
  })

  it('says when it stops and starts listening, and takes a connection that no longer hears itself as lost', async () => {
    const { url } = await database()
    const target = new URL(url)
    // A TCP proxy that can go silent: the connection stays open but nothing gets through, as when a half-open
    // connection or a pooler swallows what PostgreSQL sends.
    let silent = false
    const sockets = new Set<net.Socket>()
    const proxy = net.createServer((downstream) => {
      const upstream = net.connect(Number(target.port), target.hostname)
      for (const [from, to] of [
        [downstream, upstream],
        [upstream, downstream],
      ] as const) {
        sockets.add(from)
        from.on('data', (chunk) => void (silent || to.write(chunk)))
        from.on('error', () => to.destroy())
        from.on('close', () => to.destroy())
      }
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const proxied = new URL(url)
    proxied.hostname = '127.0.0.1'
    proxied.port = String((proxy.address() as net.AddressInfo).port)
    const states: boolean[] = []
    let gaps = 0
    const l = await listenForInvalidations({
      url: proxied.toString(),
      onTags: () => {},
      onGap: () => gaps++,
      onListening: (listening) => states.push(listening),
      log: { warn: () => {} },
      retryMs: 50,
      heartbeatMs: 50,
    })
    try {
      expect(states).toEqual([true])
      await sleep(300) // heartbeats come back: still listening
      expect(states).toEqual([true])
      silent = true
      expect(await until(() => states.length === 2)).toBe(true)
      expect(states).toEqual([true, false])
      silent = false
      expect(await until(() => states.length === 3)).toBe(true)
      expect(states).toEqual([true, false, true])
      expect(gaps).toBe(1)
    } finally {
      await l.close()
      expect(states.at(-1)).toBe(false)
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})
