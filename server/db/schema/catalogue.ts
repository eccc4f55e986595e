import { courseTypes } from '#shared/api/catalogue.ts'
import { relations, sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  uniqueIndex,
  text,
} from 'drizzle-orm/pg-core'
import { cascadeRef, identity, ownedBy, prices, ref, sameName, timestampsDefaultNow, timestamptz } from './columns.ts'
import { members } from './members.ts'

export const categories = pgTable(
  'categories',
  {
    id: identity(),
    parentId: ref((): AnyPgColumn => categories.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    icon: text(),
    sort: integer().notNull().default(0),
    visible: boolean().notNull().default(true),
  },
  (t) => [
    index('categories_parent_idx').on(t.parentId, t.sort),
    // Search (server/modules/catalogue/search.repository.ts) matches category names with ILIKE '%…%'.
    index('categories_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    // Two siblings never share a name (「软件」 and 「软件 」 would both show in the category browser): compared as
    // `sameName` normalises (case, spaces), top-level categories as the children of one parent (0).
    uniqueIndex('categories_sibling_name_key').on(sql`coalesce(${t.parentId}, 0)`, sameName(t.name)),
  ],
)

export const teachers = pgTable(
  'teachers',
  {
    id: identity(),
    name: text().notNull(),
    title: text().notNull().default(''),
    avatarUrl: text(),
    intro: text().notNull().default(''),
    sort: integer().notNull().default(0),
    /**
     * Followers: kept by triggers on `follows` (migration 0027), so every way a follow comes or goes (the toggle,
     * account deletion, a member merge) counts. A teacher brought over from elsewhere may start from a base.
     */
    followerCount: integer().notNull().default(0),
    /** The staff member who is this teacher (a teacher role sees and edits only these courses); null: none. */
    memberId: ref(() => members.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  // Search (server/modules/catalogue/search.repository.ts) matches teacher names with ILIKE '%…%'.
  (t) => [
    index('teachers_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    uniqueIndex('teachers_member_idx').on(t.memberId),
  ],
)

export const courses = pgTable(
  'courses',
  {
    id: identity(1001),
    type: text({ enum: courseTypes }).notNull(),
    title: text().notNull(),
    subtitle: text().notNull().default(''),
    coverUrl: text().notNull(),
    /** Plain text paragraphs separated by blank lines; rendered escaped. */
    intro: text().notNull().default(''),
    categoryId: ref(() => categories.id).notNull(),
    teacherId: ref(() => teachers.id),
    ...prices(),
    isFree: boolean().notNull().default(false),
    /** Set when the course can also be had for this many points (/course/creditPay/{id}); null: money only. */
    pointsPrice: integer(),
    vipFree: boolean().notNull().default(false),
    status: text({ enum: ['draft', 'published', 'hidden'] })
      .notNull()
      .default('published'),
    level: text({ enum: ['beginner', 'intermediate', 'advanced'] })
      .notNull()
      .default('beginner'),
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    studentCount: integer().notNull().default(0),
    /** Live courses: when the live session starts and ends (replay afterwards). */
    liveStartsAt: timestamptz(),
    liveEndsAt: timestamptz(),
    /** Live courses: the stream viewers play while it is live (an external HLS pull URL the operator sets). */
    livePullUrl: text(),
    /**
     * System courses: the course's own consultation contact (GET /course/contact, issue 15): a WeCom QR image and/or
     * a WeCom link; null: the site's default contact (service settings).
     */
    consultQr: text(),
    consultUrl: text(),
    sort: integer().notNull().default(0),
    ...timestampsDefaultNow(),
  },
  (t) => [
    index('courses_category_idx').on(t.categoryId, t.sort, t.id),
    // The course lists' sorts (catalogue.repository.ts listCoursePage, recommendations): an ordered index walk
    // that stops after a page, with or without a category filter, instead of sorting every published course.
    index('courses_sort_idx').on(t.sort.desc().nullsFirst(), t.id),
    index('courses_created_idx').on(t.createdAt, t.id),
    index('courses_students_idx').on(t.studentCount, t.id),
    index('courses_price_idx').on(t.priceFen, t.id),
    // Courses for points, cheapest first (/course/creditPay): the few with a points price.
    index('courses_points_price_idx')
      .on(t.pointsPrice, t.id)
      .where(sql`${t.pointsPrice} is not null`),
    index('courses_teacher_idx').on(t.teacherId),
    // Published courses per category and per teacher (the category tree, the teachers page): counted from the
    // index alone, not by reading every course.
    index('courses_published_category_idx')
      .on(t.categoryId)
      .where(sql`${t.status} = 'published'`),
    index('courses_published_teacher_idx')
      .on(t.teacherId)
      .where(sql`${t.status} = 'published'`),
    // The console's course list, by part of the title (server/db/list.ts `containsGrams`).
    index('courses_title_grams_idx').using('gin', sql`text_grams(${t.title})`),
    check('courses_points_price_ck', sql`${t.pointsPrice} is null or ${t.pointsPrice} > 0`),
  ],
)

/** The courses a system course is made of, in order. */
export const systemCourseItems = pgTable(
  'system_course_items',
  {
    systemCourseId: cascadeRef(() => courses.id),
    courseId: cascadeRef(() => courses.id),
    sort: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.systemCourseId, t.courseId] }),
    // Which system courses contain a course: read with every course's or lesson's access facts (facts.repository.ts).
    index('system_course_items_course_idx').on(t.courseId),
  ],
)

export const chapters = pgTable(
  'chapters',
  {
    ...ownedBy('courseId', () => courses.id),
    title: text().notNull(),
    sort: integer().notNull().default(0),
  },
  (t) => [index('chapters_course_idx').on(t.courseId, t.sort)],
)

export const videos = pgTable(
  'videos',
  {
    id: identity(50001),
    courseId: cascadeRef(() => courses.id),
    chapterId: ref(() => chapters.id, { onDelete: 'set null' }),
    title: text().notNull(),
    durationSeconds: integer().notNull().default(0),
    /** Seconds anyone may watch without access; 0 means no preview. */
    freeSeconds: integer().notNull().default(0),
    isFree: boolean().notNull().default(false),
    sort: integer().notNull().default(0),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [
    index('videos_course_idx').on(t.courseId, t.sort),
    // A course page reads each chapter's videos in order (findCourseTree): without it, every chapter scans videos.
    index('videos_chapter_idx').on(t.chapterId, t.sort, t.id),
    // The console's media screen, by part of the lesson title (server/db/list.ts `containsGrams`).
    index('videos_title_grams_idx').using('gin', sql`text_grams(${t.title})`),
  ],
)

/** PostgreSQL's text-search vector, written as its text form (search-text.ts builds it). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/**
 * Each course's search document (docs/decisions/2026-11-25-search.md): the lexemes of its title, teacher, tags,
 * categories and lesson titles, built in the app (pinyin needs pinyin-pro) from the rows below. Triggers of
 * migration 0016 mark a course's row stale whenever one of those changes; the app rebuilds stale rows
 * (search-index.ts) right after its own writes and in a background sweep for any other writer.
 */
export const courseSearch = pgTable(
  'course_search',
  {
    courseId: cascadeRef(() => courses.id).primaryKey(),
    /** Copies of the course's status and learners (kept by migration 0016's triggers): a search reads no course
     * row until it has its page. */
    published: boolean().notNull().default(false),
    studentCount: integer().notNull().default(0),
    /** Title (weight A), teacher and tags (B), category and its parent (C): what ranks a match. */
    head: tsvector()
      .notNull()
      .default(sql`''::tsvector`),
    /** `head` and the lesson titles (D): what a search matches. */
    doc: tsvector()
      .notNull()
      .default(sql`''::tsvector`),
    /** The fields folded (lower case, NFKC), one per line: long Chinese words are checked whole here. */
    body: text().notNull().default(''),
    /** Chapter and video titles, for the lesson a result was found by. */
    lessons: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    stale: boolean().notNull().default(true),
  },
  (t) => [
    index('course_search_doc_idx').using('gin', t.doc),
    index('course_search_stale_idx')
      .on(t.courseId)
      .where(sql`${t.stale}`),
  ],
)

/**
 * The lexemes of published courses' search documents one per row, with the best field each is in (1 title, 2
 * teacher or tag, 3 category, 4 lesson) and the course's learners: a search for one term reads its best courses
 * straight off the index, in rank order, however many courses have it. Rewritten with the document
 * (search-index.repository.ts); `term` is in the "C" collation so that a prefix is a range of the index.
 */
export const courseTerms = pgTable(
  'course_terms',
  {
    term: text().notNull(),
    tier: smallint().notNull(),
    studentCount: integer().notNull(),
    courseId: cascadeRef(() => courses.id),
  },
  (t) => [
    index('course_terms_rank_idx').on(t.term, t.tier, t.studentCount.desc(), t.courseId.desc()),
    index('course_terms_course_idx').on(t.courseId),
    // A course's title terms: whether a title has a word, or a word starting so, is one probe (a several-word search).
    index('course_terms_title_idx')
      .on(t.courseId, t.term)
      .where(sql`${t.tier} = 1`),
  ],
)

/**
 * The words searches can be corrected to (docs/decisions/2026-11-26-search-typos.md): every Latin word of three
 * letters or more, pinyin run (`~shuicaihuahui`) and pair of Chinese characters that course_terms holds, once.
 * Kept by a trigger on course_terms inserts (migration 0032) and pruned of words no course has any more
 * (search-index.ts); `word` is in the "C" collation so that the pairs starting with a character are a range.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text().primaryKey(),
    /** 'latin', 'pinyin' or 'han' (a pair of characters). */
    kind: text().notNull(),
  },
  (t) => [
    // Words spelt like a typo: trigram similarity, an index for each kind a typo is corrected to. One index of
    // both answered a Latin word ("tiose") with the hundreds of pinyin runs that share its trigrams, each rechecked
    // and dropped by the kind: 2–5 ms where the Latin words alone take 0.1.
    index('search_words_latin_trgm_idx')
      .using('gin', sql`${t.word} gin_trgm_ops`)
      .where(sql`${t.kind} = 'latin'`),
    index('search_words_pinyin_trgm_idx')
      .using('gin', sql`${t.word} gin_trgm_ops`)
      .where(sql`${t.kind} = 'pinyin'`),
    // Pairs ending with a character (a wrong first character of a Chinese word).
    index('search_words_han_last_idx')
      .on(sql`right(${t.word}, 1)`)
      .where(sql`${t.kind} = 'han'`),
  ],
)

export const hotWords = pgTable(
  'hot_words',
  {
    id: identity(),
    word: text().notNull(),
    sort: integer().notNull().default(0),
  },
  // The search page shows every word once (compared as `sameName` normalises).
  (t) => [uniqueIndex('hot_words_word_key').on(sameName(t.word))],
)

// Relations let the hot reads (home feed, course detail) fetch a whole tree in one SQL statement.
export const categoriesRelations = relations(categories, ({ one, many }) => ({
  parent: one(categories, {
    fields: [categories.parentId],
    references: [categories.id],
    relationName: 'category_parent',
  }),
  children: many(categories, { relationName: 'category_parent' }),
  courses: many(courses),
}))

export const teachersRelations = relations(teachers, ({ many }) => ({ courses: many(courses) }))

export const coursesRelations = relations(courses, ({ one, many }) => ({
  category: one(categories, { fields: [courses.categoryId], references: [categories.id] }),
  teacher: one(teachers, { fields: [courses.teacherId], references: [teachers.id] }),
  chapters: many(chapters),
  videos: many(videos),
  systemItems: many(systemCourseItems, { relationName: 'system_course' }),
  partOfSystems: many(systemCourseItems, { relationName: 'system_course_member' }),
}))

export const systemCourseItemsRelations = relations(systemCourseItems, ({ one }) => ({
  systemCourse: one(courses, {
    fields: [systemCourseItems.systemCourseId],
    references: [courses.id],
    relationName: 'system_course',
  }),
  course: one(courses, {
    fields: [systemCourseItems.courseId],
    references: [courses.id],
    relationName: 'system_course_member',
  }),
}))

export const chaptersRelations = relations(chapters, ({ one, many }) => ({
  course: one(courses, { fields: [chapters.courseId], references: [courses.id] }),
  videos: many(videos),
}))

export const videosRelations = relations(videos, ({ one }) => ({
  course: one(courses, { fields: [videos.courseId], references: [courses.id] }),
  chapter: one(chapters, { fields: [videos.chapterId], references: [chapters.id] }),
}))
