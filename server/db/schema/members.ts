import { isNotNull } from 'drizzle-orm'
import { boolean, index, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { StaffRoles } from '#shared/staff/roles.ts'
import { cascadeRef, identity, ref, timestamptz } from './columns.ts'

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
    createdAt: timestamptz().notNull().defaultNow(),
    updatedAt: timestamptz().notNull().defaultNow(),
    lastLoginAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('members_phone_key').on(t.phone).where(isNotNull(t.phone)),
    uniqueIndex('members_wx_unionid_key').on(t.wxUnionid).where(isNotNull(t.wxUnionid)),
    uniqueIndex('members_wx_openid_key').on(t.wxOpenid).where(isNotNull(t.wxOpenid)),
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
