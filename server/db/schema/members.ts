import { sql } from 'drizzle-orm'
import { boolean, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'

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
