import { jsonb, pgTable, text } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { identity, ref, timestamptz } from './columns.ts'

/**
 * Site settings operators edit in the console, one row per key (`service`: what the floating 客服 button and the
 * consult button show). A key without a row falls back to the configuration's defaults.
 */
export const siteSettings = pgTable('site_settings', {
  id: identity(),
  key: text().notNull().unique(),
  value: jsonb().$type<Record<string, unknown>>().notNull(),
  updatedBy: ref(() => members.id, { onDelete: 'set null' }),
  updatedAt: timestamptz().notNull(),
})
