import { isNotNull, sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { StaffRoles } from '#shared/staff/roles.ts'
import { cascadeRef, identity, ownedBy, ref, timestampsDefaultNow, timestamptz } from './columns.ts'

export const members = pgTable(
  'members',
  {
    id: identity(100001),
    phone: text(),
    nickname: text().notNull(),
    avatarUrl: text(),
    gender: smallint().notNull().default(0),
    wxUnionid: text(),
    wxOpenid: text(),
    /** Members who bought elsewhere are imported with their phone; `/ke2` logs only these in. */
    isPurchaser: boolean().notNull().default(false),
    ...timestampsDefaultNow(),
    lastLoginAt: timestamptz(),
    /** Set when this member was merged into another (bind phone): the member who holds everything now. */
    mergedIntoId: integer(),
    /** Set when the member deleted their account (issue 10 §5): personal data removed, orders kept anonymised. */
    deletedAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('members_phone_key').on(t.phone).where(isNotNull(t.phone)),
    uniqueIndex('members_wx_unionid_key').on(t.wxUnionid).where(isNotNull(t.wxUnionid)),
    uniqueIndex('members_wx_openid_key').on(t.wxOpenid).where(isNotNull(t.wxOpenid)),
    // The operators' console: new members of a period, members newest first, and search by part of a nickname
    // (any length, one Chinese character too: server/db/list.ts `containsGrams`).
    index('members_created_idx').on(t.createdAt),
    index('members_nickname_grams_idx').using('gin', sql`text_grams(${t.nickname})`),
  ],
)

/**
 * The first columns of a row a member owns (their notes, sessions, favourites): its own id, and the member's, whose
 * going takes the row with it.
 */
export const memberOwned = () => ownedBy('memberId', () => members.id)

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

/**
 * Staff roles (shared/staff/roles.ts): the one role table. A member may hold several; none means a learner only.
 * Granted in the console by an admin (or the first one by `npm run admin:create`).
 */
export const memberRoles = pgTable(
  'member_roles',
  {
    memberId: cascadeRef(() => members.id),
    role: text({ enum: StaffRoles }).notNull(),
    grantedBy: ref(() => members.id, { onDelete: 'set null' }),
    grantedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.role] }), index('member_roles_role_idx').on(t.role)],
)
