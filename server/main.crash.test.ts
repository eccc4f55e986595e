import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { connectDatabase, type Database } from '#server/db/database.ts'
import { embeddedUrl } from '#server/db/embedded-postgres.ts'
import { startPaymentSimulators } from '#server/integrations/payments/simulators.ts'
import { ledgerProblems } from '#server/modules/payments/testing.ts'
import { freePort } from '#tests/support/free-port.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { startServerProcess, type ServerProcess } from '#tests/support/process.ts'

/**
 * `kill -9` of the app under payment load, on its own embedded PostgreSQL: `npm start`'s code path (server/main.ts)
 * starts again by itself, once with the database left running as an orphan and once with the database killed too,
 * and every payment the provider keeps retrying is applied exactly once.
 */
describe('kill -9 under payment load, then npm start again', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-crash-'))
  fs.chmodSync(dir, 0o755)
  const servers: ServerProcess[] = []
  let database: Database | undefined
  let sims: Awaited<ReturnType<typeof startPaymentSimulators>> | undefined
  afterAll(async () => {
    for (const s of servers) await s.stop()
    await database?.close()
    await sims?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('recovers from an orphaned and from a killed embedded PostgreSQL, losing and doubling nothing paid', async () => {
    // The provider keeps sending until it gets a 2xx, like WeChat Pay (with shorter gaps): about 40 s in all.
    sims = await startPaymentSimulators({
      now: () => new Date(),
      retryDelaysMs: [200, 400, 800, 1600, ...Array<number>(12).fill(3000)],
    })
    const pgPort = await freePort()
    const port = await freePort()
    const env = {
      APP_ENV: 'test',
      PORT: String(port),
      DATA_DIR: dir,
      EMBEDDED_PG_PORT: String(pgPort),
      SEED_DEMO: 'false',
      JOB_WORKER: 'false',
      PAYMENT_SWEEPS: 'false',
      WECHATPAY_API_BASE: sims.wechatBase,
      ALIPAY_GATEWAY: sims.alipayGateway,
    }
    const pidFile = path.join(dir, 'pg', 'postmaster.pid')
    let server = await startServerProcess(env)
    servers.push(server)
    database = await connectDatabase(embeddedUrl(pgPort, 'zixue'), 4)
    const db = database.db

    const allOrders: string[] = []
    for (const round of ['app alone', 'app and its database'] as const) {
      const orderNos: string[] = []
      for (let i = 0; i < 30; i++) {
        const m = await makeMember(db)
        const course = await makeCourse(db, { priceFen: 100 + i })
        const res = await fetch(`${server.baseUrl}/api/pay/course`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'zxb-token': m.token },
          body: JSON.stringify({ course_id: course, pay_method: i % 2 ? 'wechat_h5' : 'wechat_native' }),
        })
        const body = (await res.json()) as { code: number; data: { order_no: string } }
        expect(body.code).toBe(200)
        orderNos.push(body.data.order_no)
      }
      allOrders.push(...orderNos)

      // Everyone pays at once; the app dies as soon as the first notification is through.
      const postgresPid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
      const deliveries = orderNos.map((no) => sims!.wechat.pay(no))
      while (!deliveries.some((d) => d.delivered)) await new Promise((r) => setTimeout(r, 1))
      server.child.kill('SIGKILL')
      if (round === 'app and its database') process.kill(postgresPid, 'SIGKILL')
      await server.exited
      expect(deliveries.filter((d) => d.delivered).length).toBeLessThan(orderNos.length)

      server = await startServerProcess(env)
      servers.push(server)
      // One line says what was found and done.
      expect(server.output()).toContain(
        round === 'app alone'
          ? `Stopped the embedded PostgreSQL (pid ${postgresPid}) that a previous run left running`
          : `The embedded PostgreSQL (pid ${postgresPid}) of a previous run was killed`,
      )
      const deadline = Date.now() + 45_000
      while (!deliveries.every((d) => d.delivered) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      expect(deliveries.filter((d) => !d.delivered)).toEqual([])
      expect(deliveries.some((d) => d.attempts > 1)).toBe(true)
    }

    const states = await db.execute<{ state: string; n: number }>(sql`
      select state, count(*)::int as n from orders where order_no = any(${sql.param(allOrders)}::text[]) group by state`)
    expect(states.rows).toEqual([{ state: 'paid', n: 60 }])
    const paidEvents = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from order_events e join orders o on o.id = e.order_id
      where o.order_no = any(${sql.param(allOrders)}::text[]) and e.to_state = 'paid'`)
    expect(paidEvents.rows[0]!.n).toBe(60)
    const grants = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from entitlements where source = 'purchase' and source_ref = any(${sql.param(allOrders)}::text[])`)
    expect(grants.rows[0]!.n).toBe(60)
    expect(await ledgerProblems(db)).toEqual([])

    expect(await server.stop()).toBe(0)
    expect(fs.existsSync(pidFile)).toBe(false)
  }, 240_000)
})
