import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { idsOf } from '#server/http/present.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import {
  countStaffVideos,
  searchStaffVideos,
  type StaffVideoFilter,
} from '#server/modules/catalogue/staff-videos.service.ts'
import { mediaStateCondition, mediaViewsByVideoIds } from '#server/modules/media/media.service.ts'
import type { MediaListQuery } from '#shared/api/admin-media.ts'
import { beijingDateTime } from '#shared/time.ts'

/** The columns of the media CSV export. */
const MEDIA_CSV_HEADER = [
  '视频ID',
  '标题',
  '课程ID',
  '课程',
  '章节',
  '时长（秒）',
  '状态',
  '清晰度',
  '失败原因',
  '更新时间',
]

const stateNames: Record<string, string> = {
  none: '未上传',
  uploaded: '排队中',
  transcoding: '转码中',
  ready: '可播放',
  failed: '转码失败',
}

function filterOf(q: MediaListQuery): StaffVideoFilter {
  return {
    courseId: q.course_id,
    videoId: q.video,
    title: q.q || undefined,
    media: q.state ? mediaStateCondition(q.state) : undefined,
  }
}

/**
 * The operators' media screen: every video (lesson) with its course, chapter and media state (transcoding
 * progress per rendition), filtered by course, video and state and searched by title. The catalogue lists the
 * videos; the media module adds the state filter as a condition on its own table and the states by id.
 */
export function createMediaLibrary(deps: { db: Db; stores: MediaStores }) {
  const { db, stores } = deps

  async function withMedia(rows: Awaited<ReturnType<typeof searchStaffVideos>>) {
    const media = await mediaViewsByVideoIds(db, stores, idsOf(rows, 'id'))
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      course: { id: r.courseId, title: r.courseTitle },
      chapter: r.chapterId === null ? null : { id: r.chapterId, title: r.chapterTitle ?? '' },
      duration_seconds: r.durationSeconds,
      is_free: r.isFree,
      free_seconds: r.freeSeconds,
      media: media.get(r.id)!,
    }))
  }

  /** One video's row of the CSV export (MEDIA_CSV_HEADER). */
  function videoCells(v: Awaited<ReturnType<typeof withMedia>>[number]) {
    return [
      v.id,
      v.title,
      v.course.id,
      v.course.title,
      v.chapter?.title ?? '',
      v.duration_seconds,
      stateNames[v.media.status] ?? v.media.status,
      v.media.renditions.map((r) => r.name).join(' / '),
      v.media.error ?? '',
      v.media.updated_at ? beijingDateTime(new Date(v.media.updated_at)) : '',
    ]
  }

  const videoListing = (q: MediaListQuery) =>
    listing({ page: searchStaffVideos, count: countStaffVideos }, db, q, filterOf(q))

  // The library is the console list itself (ConsoleList: a page, or every match as CSV).
  return {
    /** One page of videos matching the filters, in the asked order, with the total. */
    async page(q: MediaListQuery) {
      return videoListing(q).page(withMedia)
    },

    /** The same list as CSV rows (MEDIA_CSV_HEADER), for `csvRows`. */
    csv(q: MediaListQuery) {
      return videoListing(q).csv(MEDIA_CSV_HEADER, async (rows) => (await withMedia(rows)).map(videoCells))
    },
  }
}
