import { z } from 'zod'
import { adminListQuery } from './admin-list.ts'
import { OptionalIdQuery } from './params.ts'

// The console's media screen (GET /api/admin/media): every video with its course, chapter and media state.

const mediaSortKeys = ['id', 'title', 'duration'] as const

/** A video's media state: none (nothing uploaded), uploaded (queued), transcoding, ready, failed. */
const MediaStates = ['none', 'uploaded', 'transcoding', 'ready', 'failed'] as const
export type MediaState = (typeof MediaStates)[number]

/** GET /api/admin/media: filter by course, one video (the catalogue's link ?video=<id>), state; search by title. */
export const MediaListQuery = adminListQuery(mediaSortKeys, '-id').extend({
  course_id: OptionalIdQuery,
  video: OptionalIdQuery.describe('One video by id (the lesson links of the catalogue screens)'),
  state: z.enum(MediaStates).optional(),
  q: z.string().trim().max(40, '搜索内容最多 40 个字').optional().describe('Part of the video title'),
})
export type MediaListQuery = z.output<typeof MediaListQuery>
