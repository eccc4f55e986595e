import { isNotNull, sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { cascadeRef, identity, timestamptz } from './columns.ts'

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
    /** Set when this member was merged into another (bind phone): the member who holds everything now. */
    mergedIntoId: integer(),
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

/**
 * The log of merges (bind phone, issue 10 §3): one row per absorbed member, written in the transaction that moved
 * their rows to the survivor, with how many rows of each kind moved. Never edited.
 */
export const memberMerges = pgTable(
  'member_merges',
  {
    id: identity(),
    survivorId: cascadeRef(() => members.id),
    absorbedId: cascadeRef(() => members.id),
    /** What started it ("bind_phone"). */
    reason: text().notNull(),
    /** Rows moved per kind, e.g. { "entitlements": 2, "orders": 3, "points": 120 }. */
    moved: jsonb().$type<Record<string, number>>().notNull(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('member_merges_absorbed_key').on(t.absorbedId),
    index('member_merges_survivor_idx').on(t.survivorId),
  ],
)
