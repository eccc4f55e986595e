import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { apiFields, idsOf } from '#server/http/present.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import {
  SECTION_TITLE_MISSING,
  sectionNeedsTitle,
  type HomeItemCreate,
  type HomeItemPatch,
  type HomeOrder,
  type HomeSectionCreate,
  type HomeSectionPatch,
} from '#shared/api/admin-home.ts'
import {
  deleteItem,
  deleteSection,
  findItem,
  findItems,
  findSection,
  findSections,
  insertItem,
  insertSection,
  itemIdsOf,
  reorderItems,
  reorderSections,
  sectionIdsOf,
  updateItem,
  updateSection,
  type ItemRow,
  type SectionRow,
} from './home-admin.repository.ts'

type Feed = 'v3' | 'v2'

const isLinkSection = (kind: SectionRow['kind']) => kind === 'banner' || kind === 'shortcuts'

function sectionView(s: SectionRow) {
  return apiFields(s, ['id', 'feed', 'kind', 'title', 'subtitle', 'moreLink', 'sort', 'visible'])
}

function itemView(i: ItemRow, titles: Map<number, { title: string }>) {
  return {
    ...apiFields(i, ['id', 'sectionId', 'courseId', 'title', 'imageUrl', 'link', 'sort']),
    course_title: i.courseId === null ? null : (titles.get(i.courseId)?.title ?? null),
  }
}

/** The ids given are exactly `known`, each once; otherwise 400 naming the field. */
function checkOrder(ids: number[], known: number[]) {
  const given = new Set(ids)
  if (given.size !== ids.length || given.size !== known.length || known.some((id) => !given.has(id)))
    throw new AppError(Codes.BadRequest, '排序必须列出全部项目，且每项一次', { field: 'ids' })
}

/**
 * The home feed as operators edit it: sections (banner, shortcuts, course lists) with their items, their order
 * and whether each is published. Every write drops the feed from the learners' cache (`invalidate`), so the
 * next home page shows it, in every process (the public caches' LISTEN/NOTIFY).
 */
export function createHomeAdmin(deps: { db: Db; invalidate: (feed: Feed) => Promise<void> }) {
  const { db, invalidate } = deps

  async function requireSection(id: number) {
    const s = await findSection(db, id)
    if (!s) throw new AppError(Codes.NotFound, `首页栏目 ${id} 不存在`)
    return s
  }

  async function requireCourse(courseId: number) {
    const titles = await courseTitlesByIds(db, [courseId])
    if (!titles.has(courseId)) throw new AppError(Codes.NotFound, `课程 ${courseId} 不存在`, { field: 'course_id' })
    return titles
  }

  /** Every section of a feed, hidden ones too, in order. */
  async function sections(feed: Feed) {
    return { list: (await findSections(db, feed)).map(sectionView) }
  }

  /** A section's items in order (banners, shortcuts, or courses with their titles). */
  async function items(sectionId: number) {
    await requireSection(sectionId)
    const rows = await findItems(db, sectionId)
    const titles = await courseTitlesByIds(db, idsOf(rows, 'courseId'))
    return { list: rows.map((r) => itemView(r, titles)) }
  }

  return {
    sections,
    items,

    async createSection(body: HomeSectionCreate) {
      if (body.title === '' && sectionNeedsTitle(body.kind))
        throw new AppError(Codes.BadRequest, SECTION_TITLE_MISSING, { field: 'title' })
      const row = await insertSection(db, {
        feed: body.feed,
        kind: body.kind,
        title: body.title,
        subtitle: body.subtitle,
        moreLink: body.more_link ?? null,
        visible: body.visible,
      })
      await invalidate(row.feed)
      return sectionView(row)
    },

    /** Changes a section's texts, link or published state. */
    async updateSection(id: number, body: HomeSectionPatch) {
      const section = await requireSection(id)
      if (body.title === '' && sectionNeedsTitle(section.kind))
        throw new AppError(Codes.BadRequest, SECTION_TITLE_MISSING, { field: 'title' })
      const row = await updateSection(db, id, {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.subtitle !== undefined && { subtitle: body.subtitle }),
        ...(body.more_link !== undefined && { moreLink: body.more_link }),
        ...(body.visible !== undefined && { visible: body.visible }),
      })
      await invalidate(row!.feed)
      return sectionView(row!)
    },

    /** Deletes a section with its items. */
    async deleteSection(id: number) {
      const gone = await deleteSection(db, id)
      if (!gone) throw new AppError(Codes.NotFound, `首页栏目 ${id} 不存在`)
      await invalidate(gone.feed)
    },

    /** Puts a feed's sections in the order given (every section once). */
    async orderSections(feed: Feed, body: HomeOrder) {
      checkOrder(body.ids, await sectionIdsOf(db, feed))
      await reorderSections(db, body.ids)
      await invalidate(feed)
      return sections(feed)
    },

    /** Adds an item: a course to a course section, or an image with a link to a banner or shortcuts section. */
    async createItem(body: HomeItemCreate) {
      const section = await requireSection(body.section_id)
      let titles = new Map<number, { title: string }>()
      if (isLinkSection(section.kind)) {
        if (body.course_id !== undefined)
          throw new AppError(Codes.BadRequest, '轮播图和快捷入口不能选课程', { field: 'course_id' })
        if (!body.image_url) throw new AppError(Codes.BadRequest, '请上传图片', { field: 'image_url' })
        if (!body.link) throw new AppError(Codes.BadRequest, '请填写链接', { field: 'link' })
      } else {
        if (body.course_id === undefined) throw new AppError(Codes.BadRequest, '请选择课程', { field: 'course_id' })
        titles = await requireCourse(body.course_id)
      }
      const row = await insertItem(db, {
        sectionId: section.id,
        courseId: body.course_id ?? null,
        title: body.title,
        imageUrl: body.image_url ?? null,
        link: body.link ?? null,
      })
      await invalidate(section.feed)
      return itemView(row, titles)
    },

    async updateItem(id: number, body: HomeItemPatch) {
      const item = await findItem(db, id)
      if (!item) throw new AppError(Codes.NotFound, `首页项目 ${id} 不存在`)
      const row = await updateItem(db, id, {
        ...(body.title !== undefined && { title: body.title }),
        ...(body.image_url !== undefined && { imageUrl: body.image_url }),
        ...(body.link !== undefined && { link: body.link }),
      })
      const section = await requireSection(item.sectionId)
      await invalidate(section.feed)
      return itemView(
        row!,
        item.courseId === null ? new Map<number, { title: string }>() : await courseTitlesByIds(db, [item.courseId]),
      )
    },

    async deleteItem(id: number) {
      const gone = await deleteItem(db, id)
      if (!gone) throw new AppError(Codes.NotFound, `首页项目 ${id} 不存在`)
      await invalidate((await requireSection(gone.sectionId)).feed)
    },

    /** Puts a section's items in the order given (every item once). */
    async orderItems(sectionId: number, body: HomeOrder) {
      const section = await requireSection(sectionId)
      checkOrder(body.ids, await itemIdsOf(db, sectionId))
      await reorderItems(db, body.ids)
      await invalidate(section.feed)
      return items(sectionId)
    },
  }
}

export type HomeAdmin = ReturnType<typeof createHomeAdmin>
