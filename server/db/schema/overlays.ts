import { boolean, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core'

/** System notices shown as overlays (spec 3: so_* fields). */
export const systemOverlays = pgTable('system_overlays', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  type: smallint().notNull(),
  name: text().notNull(),
  /** HTML for text notices; sanitised when saved and again when served. */
  content: text().notNull().default(''),
  buttonText: text().notNull().default('我知道了'),
  imageUrl: text(),
  jumpType: smallint(),
  jumpParams: jsonb().$type<Record<string, string | number>>(),
  active: boolean().notNull().default(true),
  startsAt: timestamp({ withTimezone: true }),
  endsAt: timestamp({ withTimezone: true }),
  sort: integer().notNull().default(0),
})

export const overlayClicks = pgTable('overlay_clicks', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  overlayId: integer()
    .notNull()
    .references(() => systemOverlays.id, { onDelete: 'cascade' }),
  memberId: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
})
