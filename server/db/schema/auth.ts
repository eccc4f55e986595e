import { type AnyPgColumn, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { identity, timestamptz } from './columns.ts'

/**
 * The indexes of a log the sign-in limits count: recent rows per phone and per client address, and by age for the
 * cleanup (server/modules/auth/cleanup.ts), which deletes old rows.
 */
const byPhoneAddressAndAge = (table: string, t: { phone: AnyPgColumn; ip: AnyPgColumn; createdAt: AnyPgColumn }) => [
  index(`${table}_phone_idx`).on(t.phone, t.createdAt),
  index(`${table}_ip_idx`).on(t.ip, t.createdAt),
  index(`${table}_created_idx`).on(t.createdAt),
]

/** SMS codes for login and phone binding: hashed, short-lived, single use; also the send log for rate limits. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: identity(),
    phone: text().notNull(),
    purpose: text({ enum: ['login', 'bind', 'step_up', 'account', 'contract'] }).notNull(),
    codeHash: text().notNull(),
    ip: text().notNull(),
    attempts: integer().notNull().default(0),
    createdAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
    /** Set when the code logged someone in, was replaced by a resend, or died after too many wrong tries. */
    consumedAt: timestamptz(),
  },
  (t) => byPhoneAddressAndAge('sms_codes', t),
)

/**
 * Every failed code login, with the address it came from: recent ones slow further tries down per phone and address,
 * per address and (briefly) per phone (auth.rules.ts `SignInSlowdown`); none ever locks a phone for the day.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: identity(),
    phone: text().notNull(),
    /** The client address; '' for rows written before addresses were kept. */
    ip: text().notNull().default(''),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => byPhoneAddressAndAge('login_failures', t),
)
