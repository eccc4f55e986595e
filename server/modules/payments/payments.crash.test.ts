import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/database.ts'
import { startPaymentSimulators } from '#server/integrations/payments/simulators.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { freePort } from '#tests/support/free-port.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { ledgerProblems } from './testing.ts'

const entry = path.join(import.meta.dirname, 'testing-server.ts')

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, APP_ENV: 'test', LOG_LEVEL: 'error', HOST: '127.0.0.1', PAYMENT_SWEEPS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { child, exited, output: () => output }
}

async function waitUntilUp(url: string, server: { exited: Promise<void>; output: () => string }) {
  let down = false
  void server.exited.then(() => (down = true))
  for (let i = 0; i < 200 && !down; i++) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server did not come up:\n${server.output()}`)
}

describe('a crash while notifications are processed', () => {
  const children: ChildProcess[] = []
  let database: Database | undefined
  let sims: Awaited<ReturnType<typeof startPaymentSimulators>> | undefined
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await sims?.close()
    await database?.close()
  })

  it('pays every order exactly once after SIGKILL, restart and the provider retries', async () => {
    database = await createTestDatabase()
    const db = database.db
    // The provider keeps sending until it gets a 2xx, like WeChat Pay (with shorter gaps).
    sims = await startPaymentSimulators({
      now: () => new Date(),
      retryDelaysMs: [200, 400, 800, 800, 1600, 1600, 3200, 3200, 3200, 3200],
    })
    const port = await freePort()
    const env = {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '10',
      WECHATPAY_API_BASE: sims.wechatBase,
      ALIPAY_GATEWAY: sims.alipayGateway,
    }
    const first = startServer(env)
    children.push(first.child)
    await waitUntilUp(`http://127.0.0.1:${port}/api/health`, first)

    const orderNos: string[] = []
    for (let i = 0; i < 40; i++) {
      const m = await makeMember(db)
      const course = await makeCourse(db, { priceFen: 100 + i })
      const res = await fetch(`http://127.0.0.1:${port}/api/pay/course`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'zxb-token': m.token },
        body: JSON.stringify({ course_id: course, pay_method: i % 2 ? 'wechat_h5' : 'wechat_native' }),
      })
      const body = (await res.json()) as { code: number; data: { order_no: string } }
      expect(body.code).toBe(200)
      orderNos.push(body.data.order_no)
    }

    // Everyone pays at once; the server dies as soon as the first notification is through.
    const deliveries = orderNos.map((no) => sims!.wechat.pay(no))
    while (!deliveries.some((d) => d.delivered)) await new Promise((r) => setTimeout(r, 1))
    first.child.kill('SIGKILL')
    await first.exited
    const deliveredBeforeCrash = deliveries.filter((d) => d.delivered).length
    expect(deliveredBeforeCrash).toBeLessThan(orderNos.length)

    const second = startServer(env)
    children.push(second.child)
    await waitUntilUp(`http://127.0.0.1:${port}/api/health`, second)
    const deadline = Date.now() + 30_000
    while (!deliveries.every((d) => d.delivered) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(deliveries.filter((d) => !d.delivered)).toEqual([])
    expect(deliveries.some((d) => d.attempts > 1)).toBe(true)

    const states = await db.execute<{ state: string; n: number }>(sql`
      select state, count(*)::int as n from orders where order_no = any(${sql.param(orderNos)}::text[]) group by state`)
    expect(states.rows).toEqual([{ state: 'paid', n: 40 }])
    const paidEvents = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from order_events e join orders o on o.id = e.order_id
      where o.order_no = any(${sql.param(orderNos)}::text[]) and e.to_state = 'paid'`)
    expect(paidEvents.rows[0]!.n).toBe(40)
    const grants = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from entitlements where source = 'purchase'`,
    )
    expect(grants.rows[0]!.n).toBe(40)
    expect(await ledgerProblems(db)).toEqual([])

    second.child.kill('SIGTERM')
    await second.exited
  }, 90_000)
})
