import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

export const members = pgTable(
  'members',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity({ startWith: 100001 }),
    phone: text(),
    nickname: text().notNull(),
    avatarUrl: text(),
    gender: smallint().notNull().default(0),
    role: text({ enum: ['member', 'staff', 'admin'] })
      .notNull()
      .default('member'),
    wxUnionid: text(),
    wxOpenid: text(),
    /** Members who bought elsewhere are imported with their phone; `/ke2` logs only these in. */
    isPurchaser: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('members_phone_key')
      .on(t.phone)
      .where(sql`${t.phone} is not null`),
    uniqueIndex('members_wx_unionid_key')
      .on(t.wxUnionid)
      .where(sql`${t.wxUnionid} is not null`),
    uniqueIndex('members_wx_openid_key')
      .on(t.wxOpenid)
      .where(sql`${t.wxOpenid} is not null`),
  ],
)

/** Login sessions. Only a SHA-256 of the token is stored; the token itself is shown to the client once. */
export const sessions = pgTable(
  'sessions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    platform: smallint().notNull().default(2),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_member_idx').on(t.memberId)],
)

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

/** Images members uploaded (avatars), re-encoded and stripped of metadata. */
export const uploads = pgTable('uploads', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  memberId: integer()
    .notNull()
    .references(() => members.id, { onDelete: 'cascade' }),
  path: text().notNull(),
  width: integer().notNull(),
  height: integer().notNull(),
  bytes: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})

/**
 * Append-only: every change an operator makes through the staff API (`/api/admin/…` and staff routes), who made
 * it and when, with what they sent (secrets removed) and how it ended. Written after the answer is sent.
 */
export const staffActions = pgTable(
  'staff_actions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer()
      .notNull()
      .references(() => members.id),
    method: text().notNull(),
    /** The route as registered ("/api/admin/refunds/:refund_no/approve"), for filtering. */
    route: text().notNull(),
    url: text().notNull(),
    params: jsonb().$type<Record<string, unknown>>(),
    body: jsonb(),
    /** HTTP status and the envelope's code (200 is success). */
    status: smallint().notNull(),
    code: integer(),
    requestId: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('staff_actions_member_idx').on(t.memberId, t.id), index('staff_actions_route_idx').on(t.route, t.id)],
)
