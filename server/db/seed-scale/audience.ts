// The scale audience: members and what they did (orders with their items and events, entitlements, VIP, study
// progress, favourites, comments), generated as COPY rows. A member's activity is one heavy-tailed weight shared
// by every table (a third of members never did anything; a few did a great deal), and courses are chosen by
// popularity, so per-member and per-course row counts are skewed the way real ones are.
import { PINNED_MAX } from '#server/modules/comments/comments.service.ts'
import type { CataloguePlan } from './catalogue.ts'
import type { CopyValue } from './copy.ts'
import { Rng, WeightedPicker } from './random.ts'
import { commentText, nickname } from './text.ts'

export interface AudienceCounts {
  members: number
  progress: number
  orders: number
  favourites: number
  comments: number
}

export interface AudienceStart {
  memberId: number
  orderId: number
  orderItemId: number
  orderEventId: number
  entitlementId: number
  favouriteId: number
  commentId: number
  refundId: number
}

export interface VipPlanRow {
  id: number
  name: string
  days: number
  priceFen: number
}

interface OrderPlan {
  id: number
  no: string
  kind: 'course' | 'vip'
  /** Course index in the catalogue plan, or the VIP plan. */
  course: number
  plan: VipPlanRow | null
  state: 'paid' | 'closed' | 'refunded'
  at: number
  amount: number
  title: string
  method: 'wechat_jsapi' | 'wechat_h5' | 'alipay_wap'
}

const DAY = 86_400_000

const refundReasons = ['买错了课程', '内容和预期不一样', '没有时间学习', '重复购买'] as const
const refusedReasons = ['不想学了', '课程太难', '买错了课程'] as const
const iso = (ms: number) => new Date(ms).toISOString()

const beijingDate = (ms: number) =>
  iso(ms + 8 * 3600_000)
    .slice(0, 10)
    .replaceAll('-', '')

export class AudiencePlan {
  readonly activity: WeightedPicker
  private readonly joined: Float64Array

  readonly seed: number
  readonly counts: AudienceCounts
  readonly catalogue: CataloguePlan
  readonly start: AudienceStart
  readonly vipPlans: VipPlanRow[]
  readonly now: number

  constructor(
    seed: number,
    counts: AudienceCounts,
    catalogue: CataloguePlan,
    start: AudienceStart,
    vipPlans: VipPlanRow[],
    now: number,
  ) {
    this.seed = seed
    this.counts = counts
    this.catalogue = catalogue
    this.start = start
    this.vipPlans = vipPlans
    this.now = now
    const rng = new Rng(seed, 'activity')
    const weights = new Float64Array(counts.members)
    this.joined = new Float64Array(counts.members)
    for (let i = 0; i < counts.members; i++) {
      weights[i] = rng.chance(0.35) ? 0 : Math.exp(1.1 * rng.normal())
      this.joined[i] = now - rng.next() * 4 * 365 * DAY
    }
    this.activity = new WeightedPicker(weights)
  }

  memberId(i: number) {
    return this.start.memberId + i
  }

  /** The phone of generated member i (11 digits starting 19): tests and benchmarks sign in with it. */
  static phone(i: number) {
    return `19${String(i).padStart(9, '0')}`
  }

  *memberRows(): Generator<CopyValue[]> {
    const rng = new Rng(this.seed, 'members')
    for (let i = 0; i < this.counts.members; i++) {
      const joined = this.joined[i]!
      const wechat = rng.chance(0.3)
      const key = `${this.seed.toString(36)}x${i.toString(36)}`
      yield [
        this.memberId(i),
        AudiencePlan.phone(i),
        nickname(rng, i),
        null,
        rng.int(0, 2),
        wechat && rng.chance(0.5) ? `uScale${key}` : null,
        wechat ? `oScale${key}` : null,
        rng.chance(0.02),
        iso(joined),
        iso(joined),
        iso(joined + rng.next() * (this.now - joined)),
      ]
    }
  }

  /** Member i's orders, the same on every pass (their ids continue from `firstId`). */
  private ordersOf(i: number, firstId: number): OrderPlan[] {
    const n = this.activity.share(this.counts.orders, i)
    if (n === 0) return []
    const c = this.catalogue
    const rng = new Rng(this.seed, 'orders', i)
    const joined = this.joined[i]!
    const seen = new Set<number>()
    const orders: OrderPlan[] = []
    for (let attempt = 0; orders.length < n && attempt < n * 4; attempt++) {
      const at = joined + rng.next() * (this.now - joined - 3600_000)
      const id = firstId + orders.length
      const no = `ZX${beijingDate(at)}${String(id).padStart(10, '0')}`
      const method = rng.chance(0.6) ? 'wechat_jsapi' : rng.chance(0.6) ? 'alipay_wap' : 'wechat_h5'
      if (rng.chance(0.07) && this.vipPlans.length > 0) {
        const plan = rng.pick(this.vipPlans)
        const state = rng.chance(0.85) ? 'paid' : 'closed'
        orders.push({
          id,
          no,
          kind: 'vip',
          course: -1,
          plan,
          state,
          at,
          amount: plan.priceFen,
          title: `VIP ${plan.name}`,
          method,
        })
        continue
      }
      const k = c.popularity.pick(rng)
      if (seen.has(k) || c.isFree[k] === 1 || c.published[k] === 0 || c.price[k]! <= 0) continue
      seen.add(k)
      const roll = rng.next()
      const state = roll < 0.82 ? 'paid' : roll < 0.95 ? 'closed' : 'refunded'
      orders.push({
        id,
        no,
        kind: 'course',
        course: k,
        plan: null,
        state,
        at,
        amount: c.price[k]!,
        title: c.titles[k]!,
        method,
      })
    }
    return orders
      .sort((a, b) => a.at - b.at)
      .map((o, j) => ({ ...o, id: firstId + j, no: o.no.slice(0, 10) + String(firstId + j).padStart(10, '0') }))
  }

  /** Every member's orders in id order. */
  private *allOrders(): Generator<[number, OrderPlan]> {
    let next = this.start.orderId
    for (let i = 0; i < this.counts.members; i++) {
      const orders = this.ordersOf(i, next)
      next += orders.length
      for (const o of orders) yield [i, o]
    }
  }

  *orderRows(): Generator<CopyValue[]> {
    for (const [i, o] of this.allOrders()) {
      const paid = o.state !== 'closed'
      const provider = o.method === 'alipay_wap' ? 'alipay' : 'wechat'
      const paidAt = paid ? iso(o.at + 60_000) : null
      yield [
        o.id,
        o.no,
        this.memberId(i),
        o.kind,
        o.kind === 'vip' ? `vip:${o.plan!.id}` : `course:${this.catalogue.courseId(o.course)}`,
        o.title,
        o.amount,
        o.amount,
        0,
        0,
        o.state,
        o.method,
        paid ? provider : null,
        paid ? `${provider === 'wechat' ? '4200' : '2026'}${String(o.id).padStart(16, '0')}` : null,
        o.state === 'refunded' ? o.amount : 0,
        iso(o.at),
        iso(o.at + 30 * 60_000),
        paidAt,
        o.state === 'closed' ? iso(o.at + 30 * 60_000) : null,
        o.state === 'refunded' ? iso(o.at + 2 * DAY) : (paidAt ?? iso(o.at + 30 * 60_000)),
      ]
    }
  }

  *orderItemRows(): Generator<CopyValue[]> {
    let id = this.start.orderItemId
    for (const [, o] of this.allOrders()) {
      const course = o.kind === 'course' ? this.catalogue.courseId(o.course) : null
      yield [id++, o.id, course, o.plan?.id ?? null, o.plan?.days ?? null, o.title, o.amount]
    }
  }

  *orderEventRows(): Generator<CopyValue[]> {
    let id = this.start.orderEventId
    for (const [i, o] of this.allOrders()) {
      const member = `member:${this.memberId(i)}`
      yield [id++, o.id, null, 'pending', 'created', member, iso(o.at)]
      if (o.state === 'closed') {
        yield [id++, o.id, 'pending', 'closed', 'expired', 'system', iso(o.at + 30 * 60_000)]
        continue
      }
      yield [
        id++,
        o.id,
        'pending',
        'paid',
        'paid',
        `provider:${o.method === 'alipay_wap' ? 'alipay' : 'wechat'}`,
        iso(o.at + 60_000),
      ]
      if (o.state === 'refunded') {
        yield [id++, o.id, 'paid', 'refunding', 'refund_approved', 'admin:100001', iso(o.at + DAY)]
        yield [id++, o.id, 'refunding', 'refunded', 'refund_succeeded', 'system', iso(o.at + 2 * DAY)]
      }
    }
  }

  *entitlementRows(): Generator<CopyValue[]> {
    let id = this.start.entitlementId
    for (const [i, o] of this.allOrders()) {
      if (o.kind !== 'course' || o.state === 'closed') continue
      const revoked = o.state === 'refunded' ? iso(o.at + 2 * DAY) : null
      yield [
        id++,
        this.memberId(i),
        this.catalogue.courseId(o.course),
        'purchase',
        o.no,
        iso(o.at + 60_000),
        null,
        revoked,
      ]
    }
  }

  *vipRows(): Generator<CopyValue[]> {
    let next = this.start.orderId
    for (let i = 0; i < this.counts.members; i++) {
      const orders = this.ordersOf(i, next)
      next += orders.length
      let until = 0
      for (const o of orders)
        if (o.kind === 'vip' && o.state === 'paid') until = Math.max(until, o.at) + o.plan!.days * DAY
      if (until > 0) yield [this.memberId(i), iso(until), iso(this.now - DAY)]
    }
  }

  /**
   * The refunds: each refunded order's (asked for by the member, approved, sent and completed two days after the
   * order), and a refused request on about one paid course order in thirty.
   */
  *refundRows(): Generator<CopyValue[]> {
    let id = this.start.refundId
    const rng = new Rng(this.seed, 'refunds')
    for (const [i, o] of this.allOrders()) {
      const refunded = o.state === 'refunded'
      if (!refunded && !(o.state === 'paid' && o.kind === 'course' && rng.chance(1 / 30))) continue
      const provider = o.method === 'alipay_wap' ? 'alipay' : 'wechat'
      const asked = o.at + DAY / 2
      const decided = o.at + DAY
      yield [
        id,
        `RF${String(Math.floor(asked / 1000)).slice(-10)}${String(id).padStart(8, '0')}`,
        o.id,
        this.memberId(i),
        'member',
        provider,
        `${provider === 'wechat' ? '4200' : '2026'}${String(o.id).padStart(16, '0')}`,
        o.amount,
        o.amount,
        refunded ? rng.pick(refundReasons) : rng.pick(refusedReasons),
        refunded ? 'succeeded' : 'rejected',
        true,
        refunded ? `${provider === 'wechat' ? '5030' : '2026'}${String(id).padStart(16, '0')}` : null,
        null,
        iso(decided),
        refunded ? '同意退款' : '课程已学习过半，按规则不予退款',
        refunded ? iso(decided) : null,
        refunded ? iso(o.at + 2 * DAY) : null,
        iso(asked),
        iso(refunded ? o.at + 2 * DAY : decided),
      ]
      id++
    }
  }

  /**
   * Where each member stopped in each video they watched: their purchased courses first, then popular ones, each
   * from its first lesson on, most finished; the last watched lesson of a course is usually unfinished.
   */
  *progressRows(): Generator<CopyValue[]> {
    const c = this.catalogue
    let nextOrder = this.start.orderId
    for (let i = 0; i < this.counts.members; i++) {
      const orders = this.ordersOf(i, nextOrder)
      nextOrder += orders.length
      let quota = this.activity.share(this.counts.progress, i)
      if (quota === 0) continue
      const rng = new Rng(this.seed, 'progress', i)
      const owned = orders.filter((o) => o.kind === 'course' && o.state === 'paid').map((o) => o.course)
      const seen = new Set<number>()
      const joined = this.joined[i]!
      const step = (this.now - joined) / (quota + 1)
      let at = joined
      for (let attempt = 0; quota > 0 && attempt < quota * 3 + 20; attempt++) {
        const k = attempt < owned.length ? owned[attempt]! : c.popularity.pick(rng)
        if (seen.has(k)) continue
        seen.add(k)
        const watched = Math.min(quota, rng.int(1, c.videoCount[k]!))
        for (let j = 0; j < watched; j++) {
          const v = c.firstVideo[k]! + j
          const duration = c.durations[v]!
          const finished = j < watched - 1 ? rng.chance(0.85) : rng.chance(0.3)
          const position = finished ? duration : rng.int(0, Math.floor(duration * 0.85))
          at += step * (0.5 + rng.next())
          const when = iso(Math.min(at, this.now - 60_000))
          yield [this.memberId(i), c.videoId(v), c.courseId(k), position, duration, finished ? when : null, when, when]
        }
        quota -= watched
      }
    }
  }

  /** Favourite courses (and some videos) of each member, popular ones more often. */
  *favouriteRows(): Generator<CopyValue[]> {
    const c = this.catalogue
    let id = this.start.favouriteId
    for (let i = 0; i < this.counts.members; i++) {
      const n = this.activity.share(this.counts.favourites, i)
      if (n === 0) continue
      const rng = new Rng(this.seed, 'favourites', i)
      const joined = this.joined[i]!
      const courses = new Set<number>()
      const videos = new Set<number>()
      for (let attempt = 0; courses.size + videos.size < n && attempt < n * 4; attempt++) {
        const k = c.popularity.pick(rng)
        if (c.published[k] === 0) continue
        const at = iso(joined + rng.next() * (this.now - joined))
        if (rng.chance(0.2)) {
          const v = c.firstVideo[k]! + rng.int(0, c.videoCount[k]! - 1)
          if (videos.has(v)) continue
          videos.add(v)
          yield [id++, this.memberId(i), null, c.videoId(v), at]
        } else {
          if (courses.has(k)) continue
          courses.add(k)
          yield [id++, this.memberId(i), c.courseId(k), null, at]
        }
      }
    }
  }

  /**
   * Comments course by course (popular courses get most); a fifth are replies to a comment of the same course. About
   * one top-level comment in 200 is pinned, as many featured; where a course's own comments or a video's already have
   * PINNED_MAX shown pins, as many as the app allows, the next is featured instead.
   */
  *commentRows(): Generator<CopyValue[]> {
    const c = this.catalogue
    if (this.activity.total === 0) return
    let id = this.start.commentId
    const rng = new Rng(this.seed, 'comments')
    for (let k = 0; k < c.courseCount; k++) {
      const n = c.popularity.share(this.counts.comments, k)
      const threads: { id: number; member: number; video: number | null }[] = []
      /** Shown pinned comments of the course's own (key 0) and of each video. */
      const pins = new Map<number, number>()
      for (let j = 0; j < n; j++) {
        const member = this.memberId(this.activity.pick(rng))
        const at = iso(c.createdAt[k]! + rng.next() * (this.now - c.createdAt[k]!))
        const status = rng.chance(0.97) ? 'shown' : rng.chance(0.6) ? 'hidden' : 'deleted'
        const parent = threads.length > 0 && rng.chance(0.2) ? rng.pick(threads) : null
        const video = parent
          ? parent.video
          : rng.chance(0.3)
            ? c.videoId(c.firstVideo[k]! + rng.int(0, c.videoCount[k]! - 1))
            : null
        let type = !parent && rng.chance(0.01) ? (rng.chance(0.5) ? 'pinned' : 'featured') : 'normal'
        if (type === 'pinned' && status === 'shown') {
          const shown = pins.get(video ?? 0) ?? 0
          if (shown < PINNED_MAX) pins.set(video ?? 0, shown + 1)
          else type = 'featured'
        }
        const row: CopyValue[] = [id, member, c.courseId(k), video]
        if (parent) row.push(parent.id, parent.id, parent.member, parent.member)
        else row.push(null, null, null, member)
        row.push(commentText(rng, c.topicOf(k)), rng.chance(0.03), status, type, 0, at)
        if (!parent) threads.push({ id, member, video })
        id++
        yield row
      }
    }
  }
}
