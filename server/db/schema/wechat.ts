import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { identity, ref, timestamptz } from './columns.ts'

/** OAuth `state` values: single use, bound to the browser that started the flow by a cookie nonce. */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: identity(),
    stateHash: text().notNull(),
    browserHash: text().notNull(),
    scope: text({ enum: ['snsapi_base', 'snsapi_userinfo'] }).notNull(),
    returnPath: text().notNull(),
    /** The client address that started the flow: starts per address are limited (wechat.service.ts). */
    ip: text().notNull().default(''),
    createdAt: timestamptz().notNull().defaultNow(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('oauth_states_state_key').on(t.stateHash),
    index('oauth_states_ip_idx').on(t.ip, t.createdAt),
    // The cleanup (server/modules/auth/cleanup.ts) deletes by expiry.
    index('oauth_states_expires_idx').on(t.expiresAt),
  ],
)

/** OAuth codes already exchanged: WeChat refuses a second use, and so do we, before asking WeChat. */
export const oauthCodesUsed = pgTable(
  'oauth_codes_used',
  {
    codeHash: text().primaryKey(),
    memberId: ref(() => members.id, { onDelete: 'set null' }),
    usedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [index('oauth_codes_used_at_idx').on(t.usedAt)],
)

/**
 * Credentials every process of the site shares: WeChat's client-credential access_token and the JS-SDK
 * jsapi_ticket, keyed `wechat:<appid>:<kind>`. One process refreshes them under an advisory lock five minutes
 * before `expires_at`; all read them (server/modules/wechat/credentials.repository.ts).
 */
export const wechatCredentials = pgTable('wechat_credentials', {
  name: text().primaryKey(),
  value: text().notNull(),
  expiresAt: timestamptz().notNull(),
  updatedAt: timestamptz().notNull().defaultNow(),
})

/**
 * The openid a member signed in by phone inside WeChat got from the base-scope round trip (spec 4: "stores only
 * the open id, valid 6 hours"): JSAPI pay uses it when the member has no WeChat identity of their own. One row per
 * member, replaced by the next round trip; never a snapshot-mode (virtual) openid.
 */
export const wechatPayOpenids = pgTable(
  'wechat_pay_openids',
  {
    memberId: ref(() => members.id, { onDelete: 'cascade' }).primaryKey(),
    openid: text().notNull(),
    expiresAt: timestamptz().notNull(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [index('wechat_pay_openids_expires_idx').on(t.expiresAt)],
)
