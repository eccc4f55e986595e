import { z } from 'zod'
import { envelope, listEnvelope } from '#server/http/envelope.ts'
import { HomeFeeds, HomeSectionKinds } from '#shared/api/admin-home.ts'
import { CourseCard } from '#shared/api/catalogue.ts'

/** A banner or a shortcut: an image with a title and where a tap goes. */
const HomeLink = z.object({
  id: z.number().int(),
  title: z.string(),
  image: z.string().nullable(),
  link: z.string().nullable().describe('An in-site path (/course/1001.html, /boutique?cate=1) or an http(s) URL'),
})

export const HomeSection = z.object({
  id: z.number().int(),
  kind: z
    .enum(HomeSectionKinds)
    .describe(
      'banner: carousel of items; shortcuts: category icons (items); courses: a list, grid: two columns, ranking: numbered list (courses)',
    ),
  title: z.string(),
  subtitle: z.string(),
  more_link: z.string().nullable().describe('Where "更多" goes; null for none'),
  items: z.array(HomeLink).describe('banner and shortcuts sections'),
  courses: z.array(CourseCard).describe('courses, grid and ranking sections'),
})
export type HomeSection = z.infer<typeof HomeSection>

export const HomeFeed = z.object({ sections: z.array(HomeSection) })
export type HomeFeed = z.infer<typeof HomeFeed>

export const HomeFeedResponse = envelope(HomeFeed)

// ---- The home feed as operators edit it (requests: shared/api/admin-home.ts) --------------------------------

const AdminHomeSection = z.object({
  id: z.number().int(),
  feed: z.enum(HomeFeeds),
  kind: z.enum(HomeSectionKinds),
  title: z.string(),
  subtitle: z.string(),
  more_link: z.string().nullable(),
  sort: z.number().int(),
  visible: z.boolean().describe('Published'),
})
const AdminHomeItem = z.object({
  id: z.number().int(),
  section_id: z.number().int(),
  course_id: z.number().int().nullable(),
  course_title: z.string().nullable(),
  title: z.string(),
  image_url: z.string().nullable(),
  link: z.string().nullable(),
  sort: z.number().int(),
})
export const AdminHomeSectionResponse = envelope(AdminHomeSection)
export const AdminHomeSectionListResponse = listEnvelope(AdminHomeSection)
export const AdminHomeItemResponse = envelope(AdminHomeItem)
export const AdminHomeItemListResponse = listEnvelope(AdminHomeItem)
