// The write rows of `npm run bench:scale` (issue 11, section 5): progress saves and payment notifications against a
// server on the scale database (and on the demo, side by side). Figures, not assertions.
import autocannon from 'autocannon'
import pg from 'pg'
import type { startPaymentSimulators } from '#server/integrations/payments/simulators.ts'

type Simulators = Awaited<ReturnType<typeof startPaymentSimulators>>

export interface WriteLine {
  rps: number
  p50: number
  p99: number
  /** Transport errors, HTTP errors and answers whose envelope code is not 200. */
  errors: number
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end()
  }
}

/** Lessons anyone signed in may save progress in (free, or with a preview), of published courses. */
const open = `(v.is_free or c.is_free or v.free_seconds > 0) and c.status = 'published'`

/** Lessons to save progress on: a random spread at scale, every open one on the demo. */
export async function sampleVideos(databaseUrl: string) {
  const rows = await query<{ id: number }>(
    databaseUrl,
    `select v.id from videos v tablesample system (5) repeatable (3) join courses c on c.id = v.course_id
     where ${open} limit 5000`,
  )
  if (rows.length >= 100) return rows.map((r) => r.id)
  const all = `select v.id from videos v join courses c on c.id = v.course_id where ${open}`
  return (await query<{ id: number }>(databaseUrl, all)).map((r) => r.id)
}

/** How many saves a connection sends for one lesson before it moves on to another (a save every 10 s: ~3 min). */
const SAVES_PER_LESSON = 20

/**
 * POST /api/update_play_data at `connections` connections for `seconds`, as players send it: each connection is a
 * member (token in the body, as the beacon sends it) watching a random lesson, saving its position again and again
 * and moving on to another random lesson every SAVES_PER_LESSON saves (a new row in their history, and a new
 * access decision). No two connections share a member, so no save waits on another's row.
 */
export async function progressSaves(
  base: string,
  tokens: string[],
  videos: number[],
  connections: number,
  seconds: number,
): Promise<WriteLine> {
  let nextMember = 0
  let refused = 0
  const result = await autocannon({
    url: `${base}/api/update_play_data`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'identity' },
    // autocannon clears a connection's context each time it starts its list of requests again, so the list is one
    // lesson: SAVES_PER_LESSON saves of one random lesson by one member, then a new lesson (and member) from scratch.
    requests: Array.from({ length: SAVES_PER_LESSON }, () => ({
      method: 'POST' as const,
      setupRequest: (req: autocannon.Request, context: object) => {
        const c = context as { token?: string; vid?: number; position?: number; view?: number; seq?: number }
        c.token ??= tokens[nextMember++ % tokens.length]!
        c.vid ??= pick(videos)
        // As the player sends them: its page view's id and the save's number there.
        c.view ??= 1 + Math.floor(Math.random() * 2_000_000_000)
        c.seq = (c.seq ?? -1) + 1
        c.position = (c.position ?? 0) + 10
        const { vid, position, token, view, seq } = c
        return { ...req, body: JSON.stringify({ vid, position, token, view, seq }) }
      },
      onResponse: (_status: number, body: string) => {
        if (!body.startsWith('{"code":200')) refused++
      },
    })),
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + refused,
  }
}

export interface PaymentRun {
  orders: WriteLine
  notifications: WriteLine & { sent: number }
  paid: number
  /**
   * Orders paid for a course the member owned by then (ordered twice in the run, both paid): the money goes back
   * at once (`paid_but_owned_refund`, server/use-cases/confirm-payment.ts), so they end `refunding`, not `paid`.
   */
  refundedAsOwned: number
  payable: number
  /** Members holding one course from two purchases, and orders paid twice, among this run's orders. */
  duplicates: number
}

/**
 * Orders through POST /api/pay/course (prepay at the WeChat Pay simulator) for `seconds`, then every pending order
 * of the run paid by a signed notification sent twice (the replay half a round later, as bench/payments.ts does),
 * as fast as `connections` connections take them; afterwards every order must be paid once, and no member holds a
 * course twice.
 */
export async function paymentNotifications(
  base: string,
  databaseUrl: string,
  sims: Simulators,
  tokens: string[],
  connections: number,
  seconds: number,
): Promise<PaymentRun> {
  const courses = (
    await query<{ id: number }>(
      databaseUrl,
      `select id from courses where status = 'published' and not is_free and price_fen > 0 and type <> 'live'
       order by student_count desc limit 3000`,
    )
  ).map((r) => r.id)
  const startedAt = new Date()
  const orders = await autocannon({
    url: `${base}/api/pay/course`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: { 'content-type': 'application/json', 'zxb-token': pick(tokens) },
          body: JSON.stringify({ course_id: pick(courses), pay_method: 'wechat_native' }),
        }),
      },
    ],
  })
  const pending = await query<{ order_no: string }>(
    databaseUrl,
    `select order_no from orders where state = 'pending' and created_at >= $1 order by id`,
    [startedAt],
  )
  // An order whose checkout was cut off when the timed phase ended may not have reached the simulator yet.
  const payable = pending.filter((r) => sims.wechat.trades.has(r.order_no)).map((r) => r.order_no)
  const notifications = payable.map((orderNo) => {
    const trade = sims.wechat.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${orderNo.slice(2)}${Math.floor(Math.random() * 1e6)}`
    trade.successTime = new Date()
    return sims.wechat.paymentNotification(trade)
  })
  let next = 0
  const started = Date.now()
  const notify = await autocannon({
    url: `${base}/api/pay/notify/wechat`,
    connections,
    amount: notifications.length * 2,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const i = next++
          const half = Math.floor(notifications.length / 2)
          const n = notifications[(Math.floor(i / 2) + (i % 2) * half) % notifications.length]!
          return { ...req, headers: n.headers, body: n.body }
        },
      },
    ],
  })
  const elapsed = (Date.now() - started) / 1000
  const [check] = await query<{ paid: number; refundedAsOwned: number; duplicates: number }>(
    databaseUrl,
    `select (select count(*)::int from orders where order_no = any($1::text[]) and state = 'paid') as paid,
       (select count(distinct o.id)::int from orders o join order_events ev on ev.order_id = o.id
          where o.order_no = any($1::text[]) and ev.reason = 'paid_but_owned_refund') as "refundedAsOwned",
       (select count(*)::int from (select 1 from entitlements e
          where e.source = 'purchase' and e.revoked_at is null
            and (e.member_id, e.course_id) in (select e2.member_id, e2.course_id from entitlements e2
              where e2.source = 'purchase' and e2.source_ref = any($1::text[]))
          group by e.member_id, e.course_id having count(*) > 1) d)
       + (select count(*)::int from (select 1 from order_events ev join orders o on o.id = ev.order_id
          where o.order_no = any($1::text[]) and ev.to_state = 'paid' and ev.from_state in ('pending', 'closed')
          group by ev.order_id having count(*) > 1) t) as duplicates`,
    [payable],
  )
  return {
    orders: {
      rps: Math.round(orders.requests.average),
      p50: orders.latency.p50,
      p99: orders.latency.p99,
      errors: orders.errors + orders.non2xx,
    },
    notifications: {
      sent: notifications.length * 2,
      rps: Math.round((notifications.length * 2) / elapsed),
      p50: notify.latency.p50,
      p99: notify.latency.p99,
      errors: notify.errors + notify.non2xx,
    },
    paid: check!.paid,
    refundedAsOwned: check!.refundedAsOwned,
    payable: payable.length,
    duplicates: check!.duplicates,
  }
}
