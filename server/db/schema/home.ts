import { relations } from 'drizzle-orm'
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { categories, courses } from './catalogue.ts'
import { identity, ownedBy, ref } from './columns.ts'

/** Home feed: ordered sections; a section lists courses or banners (items). */
export const homeSections = pgTable('home_sections', {
  id: identity(),
  feed: text({ enum: ['v3', 'v2'] })
    .notNull()
    .default('v3'),
  kind: text({ enum: ['banner', 'shortcuts', 'courses', 'grid', 'ranking'] }).notNull(),
  title: text().notNull().default(''),
  subtitle: text().notNull().default(''),
  /** Where the section's "more" link goes (an in-site path); none when null. */
  moreLink: text(),
  sort: integer().notNull().default(0),
  visible: boolean().notNull().default(true),
})

export const homeSectionItems = pgTable(
  'home_section_items',
  {
    ...ownedBy('sectionId', () => homeSections.id),
    courseId: ref(() => courses.id, { onDelete: 'cascade' }),
    categoryId: ref(() => categories.id, { onDelete: 'cascade' }),
    title: text().notNull().default(''),
    imageUrl: text(),
    /** An in-site path ("/course/1001.html") or an http(s) URL. */
    link: text(),
    sort: integer().notNull().default(0),
  },
  (t) => [index('home_section_items_section_idx').on(t.sectionId, t.sort)],
)

// Relations stay inside the module: an item's course is read through the catalogue's door (courseCardsByIds).
export const homeSectionsRelations = relations(homeSections, ({ many }) => ({ items: many(homeSectionItems) }))

export const homeSectionItemsRelations = relations(homeSectionItems, ({ one }) => ({
  section: one(homeSections, { fields: [homeSectionItems.sectionId], references: [homeSections.id] }),
}))
