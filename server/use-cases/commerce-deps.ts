import type { Config } from '#server/config.ts'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import type { PaymentProviders } from '#server/integrations/payments/payments.ts'

/** Runs `fn` in one database transaction and returns its result (server/services-commerce.ts builds it). */
type Transaction = <T>(fn: (tx: DbOrTx) => Promise<T>) => Promise<T>

/**
 * What commerce's use cases are given (server/services-commerce.ts): the database for reads outside a
 * transaction, the transaction runner, the configuration, the payment providers and the clock. Every door call
 * inside a workflow's transaction gets that transaction's `tx`.
 */
export interface CommerceDeps {
  db: Db
  transaction: Transaction
  config: Config
  providers: PaymentProviders
  now: () => Date
  /**
   * Paid, refunded, granted, revoked: logged once each. Emitted inside `transaction` they are written after it
   * commits (server/services-commerce.ts builds the runner that way).
   */
  events?: Pick<BusinessEvents, 'emit'>
}

/** A use case as routes and sweeps call it: its dependencies bound (server/services-commerce.ts binds them). */
export type Bound<F> = F extends (deps: never, ...args: infer A) => infer R ? (...args: A) => R : never
