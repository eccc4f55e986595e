import { boolean, integer, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core'
import { identity, ownedBy, timestamptz } from './columns.ts'

/** System notices shown as overlays (spec 3: so_* fields). */
export const systemOverlays = pgTable('system_overlays', {
  id: identity(),
  type: smallint().notNull(),
  name: text().notNull(),
  /** HTML for text notices; sanitised when saved and again when served. */
  content: text().notNull().default(''),
  buttonText: text().notNull().default('我知道了'),
  imageUrl: text(),
  jumpType: smallint(),
  jumpParams: jsonb().$type<Record<string, string | number>>(),
  active: boolean().notNull().default(true),
  startsAt: timestamptz(),
  endsAt: timestamptz(),
  sort: integer().notNull().default(0),
  /** Marked by the operator: may show even after another overlay this session (issue 10: one per session). */
  urgent: boolean().notNull().default(false),
})

export const overlayClicks = pgTable('overlay_clicks', {
  ...ownedBy('overlayId', () => systemOverlays.id),
  memberId: integer(),
  createdAt: timestamptz().notNull().defaultNow(),
})
