import { z } from 'zod'
import { JsonId as id } from './params.ts'

// The home feed as operators edit it in the console (request schemas; the console's forms validate with the same
// ones). A section is published while `visible`; its order is `sort` (smaller first), set by a reorder call.

export const HomeFeeds = ['v3', 'v2'] as const
export const HomeSectionKinds = ['banner', 'shortcuts', 'courses', 'grid', 'ranking'] as const

/** An in-site path ("/course/1001.html") or an http(s) URL. */
const HomeLinkTarget = z
  .string()
  .trim()
  .max(500, '链接最多 500 个字符')
  .regex(/^(\/(?!\/)|https?:\/\/)\S*$/, '链接必须是站内路径（/ 开头）或 http(s) 网址')

/** Banners and shortcuts show no heading; every other section is a titled block of courses on the home page. */
export const sectionNeedsTitle = (kind: (typeof HomeSectionKinds)[number]) => kind !== 'banner' && kind !== 'shortcuts'
export const SECTION_TITLE_MISSING = '请填写标题（课程栏目在首页显示标题）'

export const HomeSectionCreate = z.strictObject({
  feed: z.enum(HomeFeeds).default('v3'),
  kind: z.enum(HomeSectionKinds),
  title: z.string().trim().max(30, '标题最多 30 个字').default(''),
  subtitle: z.string().trim().max(60, '副标题最多 60 个字').default(''),
  more_link: HomeLinkTarget.nullable().optional(),
  visible: z.boolean().default(false).describe('Published: shown on the feed (new sections start hidden)'),
})

export type HomeSectionCreate = z.output<typeof HomeSectionCreate>

/** A PATCH body changes at least one field (an empty one is a mistake, not a no-op). */
const atLeastOne = (v: object) => Object.keys(v).length > 0
const NOTHING_TO_CHANGE = '至少要修改一项'

export const HomeSectionPatch = z
  .strictObject({
    title: z.string().trim().max(30, '标题最多 30 个字').optional(),
    subtitle: z.string().trim().max(60, '副标题最多 60 个字').optional(),
    more_link: HomeLinkTarget.nullable().optional(),
    visible: z.boolean().optional(),
  })
  .refine(atLeastOne, NOTHING_TO_CHANGE)
export type HomeSectionPatch = z.output<typeof HomeSectionPatch>

/** What an item of a banner or shortcuts section has (an image, a title and a link), or of a course section. */
const itemFields = {
  title: z.string().trim().max(30, '标题最多 30 个字'),
  image_url: z
    .string()
    .trim()
    .max(500)
    .regex(/^(\/|https:\/\/)\S*$/, '图片地址必须是站内路径或 https 网址'),
  link: HomeLinkTarget,
}

/** Items of a banner or shortcuts section: an image, a title and a link; of a course section: a course. */
export const HomeItemCreate = z.strictObject({
  section_id: id,
  course_id: id.optional(),
  title: itemFields.title.default(''),
  image_url: itemFields.image_url.optional(),
  link: itemFields.link.optional(),
})
export type HomeItemCreate = z.output<typeof HomeItemCreate>

// Built from the fields without their defaults: a PATCH that leaves out the title keeps it.
export const HomeItemPatch = z.strictObject(itemFields).partial().refine(atLeastOne, NOTHING_TO_CHANGE)
export type HomeItemPatch = z.output<typeof HomeItemPatch>

/** The new order: every id of the feed's sections (or of the section's items), first to last. */
export const HomeOrder = z.strictObject({
  ids: z.array(id).min(1, '至少一项').max(200, '最多 200 项'),
})
export type HomeOrder = z.output<typeof HomeOrder>

export const HomeSectionListQuery = z.object({ feed: z.enum(HomeFeeds).default('v3') })
