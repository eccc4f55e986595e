import { eq, sql } from 'drizzle-orm'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { jobs } from '#server/db/schema/jobs.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { findJob } from './jobs.repository.ts'
import { createWorker, enqueueJob, PermanentJobError, type JobKind } from './worker.ts'

const log = Fastify({ logger: false }).log

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the job queue', () => {
  const database = useTestDatabase()

  it('runs a queued job once and marks it done', async () => {
    const { db } = await database()
    const seen: unknown[] = []
    const worker = createWorker({ db, log, pollMs: 20, kinds: { echo: { run: async (p) => void seen.push(p) } } })
    const id = (await enqueueJob(db, { kind: 'echo', payload: { n: 1 } }))!
    worker.start()
    await until(async () => (await findJob(db, id))?.status === 'done')
    await worker.stop()
    expect(seen).toEqual([{ n: 1 }])
    expect(await findJob(db, id)).toMatchObject({ attempts: 1, lockedBy: null })
  })

  it('keeps one queued job per singleton key', async () => {
    const { db } = await database()
    const first = await enqueueJob(db, { kind: 'idle', payload: {}, singletonKey: 'k:1' })
    const second = await enqueueJob(db, { kind: 'idle', payload: {}, singletonKey: 'k:1' })
    expect(first).toBeTypeOf('number')
    expect(second).toBeNull()
    await db.update(jobs).set({ status: 'done' }).where(eq(jobs.id, first!))
    expect(await enqueueJob(db, { kind: 'idle', payload: {}, singletonKey: 'k:1' })).toBeTypeOf('number')
  })

  it('retries a failing job and reports the reason when it fails for good', async () => {
    const { db } = await database()
    const failures: string[] = []
    let calls = 0
    const kind: JobKind = {
      run: async () => {
        calls++
        throw new Error(`boom ${calls}`)
      },
      onFailed: async (_p, error) => void failures.push(error),
    }
    const worker = createWorker({ db, log, pollMs: 20, retryBaseMs: 1, kinds: { flaky: kind } })
    const id = (await enqueueJob(db, { kind: 'flaky', payload: {}, maxAttempts: 3 }))!
    worker.start()
    await until(async () => (await findJob(db, id))?.status === 'failed')
    await worker.stop()
    expect(calls).toBe(3)
    expect(failures).toEqual(['boom 3'])
    expect(await findJob(db, id)).toMatchObject({ attempts: 3, lastError: 'boom 3' })
  })

  it('does not retry a permanent failure', async () => {
    const { db } = await database()
    let calls = 0
    const kind: JobKind = {
      run: async () => {
        calls++
        throw new PermanentJobError('not a video')
      },
    }
    const worker = createWorker({ db, log, pollMs: 20, retryBaseMs: 1, kinds: { bad: kind } })
    const id = (await enqueueJob(db, { kind: 'bad', payload: {} }))!
    worker.start()
    await until(async () => (await findJob(db, id))?.status === 'failed')
    await worker.stop()
    expect(calls).toBe(1)
    expect(await findJob(db, id)).toMatchObject({ attempts: 1, lastError: 'not a video' })
  })

  it('runs again a job whose worker died while running it (lease ran out)', async () => {
    const { db } = await database()
    const id = (await enqueueJob(db, { kind: 'survivor', payload: { video: 7 } }))!
    // What a process killed mid-job leaves behind: running, attempt counted, lease in the past.
    await db
      .update(jobs)
      .set({
        status: 'running',
        attempts: 1,
        lockedBy: 'dead-host:1:ffff',
        lockedUntil: sql`now() - interval '1 second'`,
      })
      .where(eq(jobs.id, id))
    const seen: unknown[] = []
    const worker = createWorker({ db, log, pollMs: 20, kinds: { survivor: { run: async (p) => void seen.push(p) } } })
    worker.start()
    await until(async () => (await findJob(db, id))?.status === 'done')
    await worker.stop()
    expect(seen).toEqual([{ video: 7 }])
    expect((await findJob(db, id))!.attempts).toBe(2)
  })

  it('does not take a running job whose lease is still held', async () => {
    const { db } = await database()
    const id = (await enqueueJob(db, { kind: 'held', payload: {} }))!
    await db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedBy: 'alive:1:aaaa', lockedUntil: sql`now() + interval '1 minute'` })
      .where(eq(jobs.id, id))
    let calls = 0
    const worker = createWorker({ db, log, pollMs: 20, kinds: { held: { run: async () => void calls++ } } })
    worker.start()
    await new Promise((r) => setTimeout(r, 200))
    await worker.stop()
    expect(calls).toBe(0)
    expect(await findJob(db, id)).toMatchObject({ status: 'running', lockedBy: 'alive:1:aaaa' })
  })

  it('fails a job whose worker died on every attempt', async () => {
    const { db } = await database()
    const id = (await enqueueJob(db, { kind: 'crashy', payload: { video: 9 }, maxAttempts: 2 }))!
    await db
      .update(jobs)
      .set({ status: 'running', attempts: 2, lockedBy: 'dead:1:bbbb', lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(jobs.id, id))
    const failed: unknown[] = []
    const worker = createWorker({
      db,
      log,
      pollMs: 20,
      kinds: { crashy: { run: async () => {}, onFailed: async (p, e) => void failed.push([p, e]) } },
    })
    worker.start()
    await until(async () => (await findJob(db, id))?.status === 'failed')
    await worker.stop()
    expect(failed).toEqual([[{ video: 9 }, 'the worker stopped while running it, too many times']])
  })

  it('gives a running job back when the worker stops, without counting the attempt', async () => {
    const { db } = await database()
    let started = false
    const kind: JobKind = {
      run: (_p, ctx) =>
        new Promise((_resolve, reject) => {
          started = true
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))
        }),
    }
    const worker = createWorker({ db, log, pollMs: 20, kinds: { long: kind } })
    const id = (await enqueueJob(db, { kind: 'long', payload: {} }))!
    worker.start()
    await until(async () => started)
    await worker.stop()
    expect(await findJob(db, id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null })
  })

  it('runs each job exactly once with two workers claiming at the same time', async () => {
    const { db } = await database()
    const runs: number[] = []
    const kind: JobKind = {
      run: async (p) => {
        runs.push(p.n as number)
        await new Promise((r) => setTimeout(r, 5))
      },
    }
    const ids = []
    for (let n = 0; n < 20; n++) ids.push((await enqueueJob(db, { kind: 'many', payload: { n } }))!)
    const a = createWorker({ db, log, pollMs: 10, concurrency: 2, kinds: { many: kind } })
    const b = createWorker({ db, log, pollMs: 10, concurrency: 2, kinds: { many: kind } })
    a.start()
    b.start()
    await until(async () => {
      const rows = await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.kind, 'many'))
      return rows.every((r) => r.status === 'done')
    })
    await Promise.all([a.stop(), b.stop()])
    expect(runs.sort((x, y) => x - y)).toEqual([...Array(20).keys()])
  })
})
