import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { enqueueJob } from '#server/jobs/worker.ts'
import { startJobWorker } from '#server/jobs/start.ts'
import { TRANSCODE_JOB } from '#server/modules/media/video-media.service.ts'
import { randomIp, randomPhone, testClock } from '#server/modules/auth/testing.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { headersOf, paidCourse, settleSimulators, type ApiBody } from '#server/modules/payments/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

const TOKEN = 'metrics-token-for-the-test-0123'

/** The app's log lines, parsed (business events are info lines with an `event` field). */
function logLines() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as never)
      done()
    },
  })
  return { lines, stream }
}

async function until(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('GET /metrics', () => {
  const log = logLines()
  const clock = testClock()
  const holder: { t?: ReturnType<typeof useTestApp> } = {}
  const t = useTestApp(
    { METRICS_TOKEN: TOKEN, PAYMENT_SWEEPS: 'false' },
    {
      integrations: { now: clock.now, paymentsFetch: injectFetch(() => holder.t!().app) },
      logger: { level: 'info', stream: log.stream },
    },
  )
  holder.t = t
  const scrape = async () => {
    const res = await t().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.statusCode).toBe(200)
    return res
  }
  const events = (name: string) => log.lines.filter((l) => l.event === name)

  it('refuses a scrape without the token or with another one', async () => {
    const none = await t().app.inject({ method: 'GET', url: '/metrics' })
    expect(none.statusCode).toBe(403)
    expect(none.body).not.toContain('zixue_')
    const wrong = await t().app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
    })
    expect(wrong.statusCode).toBe(403)
    const basic = await t().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: TOKEN } })
    expect(basic.statusCode).toBe(403)
  })

  it('serves the Prometheus text format: process, pool and queue figures', async () => {
    const res = await scrape()
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.body).toContain('# TYPE zixue_http_request_duration_seconds histogram')
    expect(res.body).toMatch(/^zixue_db_pool_connections\{state="total"\} \d+$/m)
    expect(res.body).toMatch(/^zixue_db_pool_connections\{state="waiting"\} 0$/m)
    expect(res.body).toMatch(/^zixue_db_pool_max 30$/m)
    expect(res.body).toMatch(/^zixue_process_resident_memory_bytes \d+/m)

    await enqueueJob(t().database.db, { kind: 'metrics.test', payload: {} })
    await enqueueJob(t().database.db, { kind: 'metrics.test', payload: {} })
    expect((await scrape()).body).toMatch(/^zixue_job_queue_depth\{kind="metrics\.test",status="queued"\} 2$/m)
  })

  it('counts requests by route pattern, never by raw URL, with their latency', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 4900 })
    const buy = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: course, pay_method: 'wechat_native' },
    })
    const orderNo = buy.json<ApiBody<{ order_no: string }>>().data.order_no
    for (let i = 0; i < 3; i++)
      await t().app.inject({ method: 'GET', url: `/api/orders/${orderNo}`, headers: headersOf(m.token) })
    await t().app.inject({ method: 'GET', url: '/api/orders/ZX-NO-SUCH-ORDER', headers: headersOf(m.token) })

    const body = (await scrape()).body
    const route = 'method="GET",route="/api/orders/:order_no"'
    const count = Number(
      body.match(new RegExp(`^zixue_http_request_duration_seconds_count\\{${route},status="200"\\} (\\d+)$`, 'm'))?.[1],
    )
    expect(count).toBe(3)
    expect(body).toContain(`zixue_http_request_duration_seconds_count{${route},status="404"} 1`)
    expect(body).toMatch(
      new RegExp(`^zixue_http_request_duration_seconds_bucket\\{le="\\+Inf",${route},status="200"\\} 3$`, 'm'),
    )
    // Buckets count every request at or below their bound: cumulative, as Prometheus reads them.
    expect(body).toMatch(
      new RegExp(`^zixue_http_request_duration_seconds_bucket\\{le="10",${route},status="200"\\} 3$`, 'm'),
    )
    expect(body).toMatch(
      new RegExp(`^zixue_http_request_duration_seconds_sum\\{${route},status="200"\\} 0\\.\\d+`, 'm'),
    )
    expect(body).toMatch(
      /zixue_http_request_duration_seconds_count\{method="POST",route="\/api\/pay\/course",status="200"\} 1/,
    )
    expect(body).not.toContain(orderNo)
    expect(body).not.toContain('ZX-NO-SUCH-ORDER')
    // Probes and scrapes are not traffic.
    expect(body).not.toMatch(/route="\/metrics"|route="\/api\/health/)
  })

  it('counts payment notifications by outcome and logs the payment and its grant once, without phone numbers', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 9900 })
    const buy = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: course, pay_method: 'wechat_native' },
    })
    const orderNo = buy.json<ApiBody<{ order_no: string }>>().data.order_no
    const sims = t().app.paymentSimulators!
    sims.wechat.pay(orderNo)
    await settleSimulators(t().app)
    // The provider sends the same notification again: applied once, the replay only counted.
    const again = sims.wechat.paymentNotification(sims.wechat.trades.get(orderNo)!)
    const replay = await t().app.inject({
      method: 'POST',
      url: '/api/pay/notify/wechat',
      headers: again.headers,
      payload: again.body,
    })
    expect(replay.statusCode).toBe(204)

    const body = (await scrape()).body
    expect(body).toMatch(/^zixue_payment_notifications_total\{provider="wechat",kind="payment",outcome="applied"\} 1$/m)
    expect(body).toMatch(
      /^zixue_payment_notifications_total\{provider="wechat",kind="payment",outcome="duplicate"\} 1$/m,
    )

    const paid = events('order.paid').filter((e) => e.order_no === orderNo)
    expect(paid).toEqual([
      expect.objectContaining({ msg: 'order.paid', member_id: m.id, amount_fen: 9900, provider: 'wechat' }),
    ])
    expect(events('access.granted').filter((e) => e.ref === orderNo)).toEqual([
      expect.objectContaining({ member_id: m.id, source: 'purchase', courses: [course] }),
    ])
    expect(body).toMatch(/^zixue_business_events_total\{event="order\.paid"\} 1$/m)
    const phone = (await db.query.members.findFirst({ where: (r, { eq }) => eq(r.id, m.id) }))!.phone!
    expect(JSON.stringify(log.lines)).not.toContain(phone)
  })

  it('logs a full refund and the access it took back once, after the refund commits', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const { m, orderNo, course } = await paidCourse(t)
    const post = (url: string, token: string, payload: object) =>
      t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })
    const asked = await post('/api/refunds', m.token, { order_no: orderNo, reason: '买错了' })
    const refundNo = asked.json<ApiBody<{ refund_no: string }>>().data.refund_no
    expect((await post(`/api/admin/refunds/${refundNo}/approve`, admin.token, {})).json<ApiBody>().code).toBe(200)
    await settleSimulators(t().app)
    await until(() => events('order.refunded').some((e) => e.order_no === orderNo))
    await settleSimulators(t().app)
    expect(events('order.refunded').filter((e) => e.order_no === orderNo)).toEqual([
      expect.objectContaining({ refund_no: refundNo, member_id: m.id, amount_fen: 10000, full: true }),
    ])
    expect(events('access.revoked').filter((e) => e.ref === orderNo)).toEqual([
      expect.objectContaining({ member_id: m.id, source: 'purchase', entitlements: 1 }),
    ])
    // Staff grants and revocations are events too, with the member id; revoking twice is one event.
    const grant = await post('/api/admin/entitlements', admin.token, { member_id: m.id, course_id: course })
    const id = grant.json<ApiBody<{ id: number }>>().data.id
    await post(`/api/admin/entitlements/${id}/revoke`, admin.token, {})
    await post(`/api/admin/entitlements/${id}/revoke`, admin.token, {})
    const ref = `entitlement:${id} by admin:${admin.id}`
    expect(events('access.granted').filter((e) => e.ref === ref)).toEqual([
      expect.objectContaining({ member_id: m.id, source: 'admin', courses: [course] }),
    ])
    expect(events('access.revoked').filter((e) => e.ref === ref)).toHaveLength(1)
  })

  it('counts SMS sends by provider and result', async () => {
    const sent = await t().app.inject({
      method: 'POST',
      url: '/api/send_code',
      payload: { phone: randomPhone() },
      remoteAddress: randomIp(),
    })
    expect(sent.json<ApiBody>().code).toBe(200)
    expect((await scrape()).body).toMatch(/^zixue_sms_sends_total\{provider="console",result="sent"\} 1$/m)
  })

  it('counts transcodes and job failures by kind, and logs a job that failed for good once', async () => {
    // A transcode of a video that does not exist fails for good at once.
    const id = (await enqueueJob(t().database.db, {
      kind: TRANSCODE_JOB,
      payload: { video_id: 999999 },
      maxAttempts: 1,
    }))!
    const worker = startJobWorker(t().app.services, t().app.log, { pollMs: 20 })
    try {
      await until(() => events('job.failed').some((e) => e.job_id === id))
    } finally {
      await worker.stop()
    }
    expect(events('job.failed').filter((e) => e.job_id === id)).toEqual([
      expect.objectContaining({ kind: TRANSCODE_JOB, attempts: 1 }),
    ])
    const body = (await scrape()).body
    expect(body).toMatch(/^zixue_transcodes_total\{result="failed"\} 1$/m)
    expect(body).toMatch(/^zixue_job_runs_total\{kind="transcode",result="failed"\} 1$/m)
    expect(body).toMatch(/^zixue_transcode_duration_seconds_count 1$/m)
    expect(body).toMatch(/^zixue_business_events_total\{event="job\.failed"\} 1$/m)
  })
})

describe('GET /metrics without METRICS_TOKEN', () => {
  const t = useTestApp()

  it('does not exist', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/metrics' })
    expect(res.statusCode).toBe(404)
  })
})
