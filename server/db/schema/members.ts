import { isNotNull, sql } from 'drizzle-orm'
import { boolean, index, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { identity, timestamptz } from './columns.ts'

export const members = pgTable(
  'members',
  {
    id: identity(100001),
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
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
    lastLoginAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('members_phone_key').on(t.phone).where(isNotNull(t.phone)),
    uniqueIndex('members_wx_unionid_key').on(t.wxUnionid).where(isNotNull(t.wxUnionid)),
    uniqueIndex('members_wx_openid_key').on(t.wxOpenid).where(isNotNull(t.wxOpenid)),
    // The operators' console: new members of a period, members newest first, and search by part of a nickname.
    index('members_created_idx').on(t.createdAt),
    index('members_nickname_trgm_idx').using('gin', sql`${t.nickname} gin_trgm_ops`),
  ],
)
