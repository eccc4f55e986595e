import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** SMS codes for login and phone binding: hashed, short-lived, single use; also the send log for rate limits. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    phone: text().notNull(),
    purpose: text({ enum: ['login', 'bind'] }).notNull(),
    codeHash: text().notNull(),
    ip: text().notNull(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Set when the code logged someone in, was replaced by a resend, or died after too many wrong tries. */
    consumedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('sms_codes_phone_idx').on(t.phone, t.createdAt),
    index('sms_codes_ip_idx').on(t.ip, t.createdAt),
    // The cleanup (server/modules/auth/cleanup.ts) deletes by age.
    index('sms_codes_created_idx').on(t.createdAt),
  ],
)

/** Every failed code login; ten in a day lock code login for that phone until the next day. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    phone: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_phone_idx').on(t.phone, t.createdAt),
    index('login_failures_created_idx').on(t.createdAt),
  ],
)
