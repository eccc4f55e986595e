import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { createWechatHttpClient } from '#server/integrations/wechat/wechat-http-client.ts'
import { createWechatSimulatorState, wechatSimulator } from '#server/integrations/wechat/wechat-simulator.ts'
import { useTestDatabase } from '#tests/support/database.ts'
import { sharedWechatCredentials } from './wechat.service.ts'

const APP_ID = 'wx_shared_app'
const SECRET = 'shared_secret'
let clock = Date.now()
let sim: FastifyInstance
const simState = createWechatSimulatorState()
const calls: string[] = []
const database = useTestDatabase()

beforeAll(async () => {
  sim = Fastify({ logger: false })
  await sim.register(wechatSimulator, {
    prefix: '/sim',
    appId: APP_ID,
    appSecret: SECRET,
    redirectHosts: ['zixue.test'],
    publicBase: 'https://zixue.test/sim',
    now: () => new Date(clock),
    state: simState,
  })
  await sim.ready()
})
afterAll(() => sim.close())

/** One "process": its own adapter and memory, the shared PostgreSQL store. */
async function processOnDatabase() {
  const { db } = await database()
  return createWechatHttpClient({
    apiBase: 'http://sim.test/sim',
    appId: APP_ID,
    appSecret: SECRET,
    now: () => new Date(clock),
    fetch: injectFetch(
      () => sim,
      (url) => calls.push(url.pathname.replace('/sim', '')),
    ),
    credentials: sharedWechatCredentials(db),
  })
}

describe('WeChat credentials shared in PostgreSQL', () => {
  it('lets many processes asking at once fetch the token and ticket from WeChat once', async () => {
    await database() // created once, before the processes ask for it at the same time
    const processes = await Promise.all([1, 2, 3, 4].map(() => processOnDatabase()))
    const tickets = await Promise.all(processes.flatMap((p) => [p.jsapiTicket(), p.jsapiTicket()]))
    expect(new Set(tickets).size).toBe(1)
    expect(calls).toEqual(['/cgi-bin/stable_token', '/cgi-bin/ticket/getticket'])
    const { db } = await database()
    const rows = await db.execute<{ name: string; left: number }>(
      `select name, extract(epoch from expires_at - now())::int as left from wechat_credentials order by name`,
    )
    expect(rows.rows.map((r) => r.name)).toEqual([`wechat:${APP_ID}:access_token`, `wechat:${APP_ID}:jsapi_ticket`])
  })

  it('refreshes five minutes before expiry, once for all processes, and a late process reads the new one', async () => {
    const [a, b] = await Promise.all([processOnDatabase(), processOnDatabase()])
    const before = await a.jsapiTicket()
    calls.length = 0
    clock += (7200 - 290) * 1000
    simState.ticket = undefined // WeChat's ticket of the moment ends with the old one
    const [x, y] = await Promise.all([a.jsapiTicket(), b.jsapiTicket()])
    expect(x).toBe(y)
    expect(x).not.toBe(before)
    expect(calls).toEqual(['/cgi-bin/stable_token', '/cgi-bin/ticket/getticket'])
    expect(await (await processOnDatabase()).jsapiTicket()).toBe(x)
    expect(calls).toHaveLength(2)
  })
})
