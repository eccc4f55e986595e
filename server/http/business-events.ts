import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * The events operators search the log for, each logged once with the order number or member id (never a phone
 * number). Field names are the log's: snake_case like the API.
 */
export type BusinessEvent =
  | { event: 'order.paid'; order_no: string; member_id: number; amount_fen: number; provider: string | null }
  | {
      event: 'order.refunded'
      order_no: string
      refund_no: string
      member_id: number
      amount_fen: number
      /** All of the order's money is back (its grants go); otherwise partially refunded. */
      full: boolean
    }
  | {
      event: 'access.granted' | 'access.revoked'
      member_id: number
      /** purchase, staff, … (the entitlement source); `ref` the order number or entitlement id. */
      source: string
      ref: string | null
      courses?: number[]
      entitlements?: number
      vip_days?: number
      /** Why staff granted or revoked it (the operators' console asks). */
      reason?: string
    }
  | { event: 'job.failed'; job_id: number; kind: string; attempts: number; error: string }

export interface BusinessEvents {
  /** Logs the event now, or, inside `afterCommit`, once the work it belongs to has committed. */
  emit(event: BusinessEvent): void
  /**
   * Runs `work` (a database transaction); what it emits is logged when it resolves and dropped when it throws
   * (rolled back: nothing happened, and a retry logs it then).
   */
  afterCommit<T>(work: () => Promise<T>): Promise<T>
}

interface EventLog {
  info(fields: object, message: string): void
}

/** Business events written to `log` (the app's logger, at info) and counted by `count` (the metrics). */
export function createBusinessEvents(log: EventLog, count?: (event: BusinessEvent['event']) => void): BusinessEvents {
  const pending = new AsyncLocalStorage<BusinessEvent[]>()
  const write = (e: BusinessEvent) => {
    log.info(e, e.event)
    count?.(e.event)
  }
  return {
    emit(e) {
      const queue = pending.getStore()
      if (queue) queue.push(e)
      else write(e)
    },
    async afterCommit(work) {
      const queue: BusinessEvent[] = []
      const result = await pending.run(queue, work)
      for (const e of queue) write(e)
      return result
    },
  }
}
