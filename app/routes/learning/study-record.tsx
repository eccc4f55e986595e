import { useLoaderData } from 'react-router'
import { formatDuration } from '#app/components/course-card/course-format.ts'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { memberData } from '#app/lib/services-context.ts'
import { useServerData } from '#app/lib/use-api-get.ts'
import { usePagedList } from '#app/lib/use-paged-list.ts'
import { StudyList } from './study-list.tsx'
import { StudyItem } from './study-parts.tsx'
import { formatStudiedAt } from './studied-at.ts'
import styles from './study.module.css'
import type { z } from 'zod'
import type { StudyRecordItem } from '#server/modules/learning/learning.schema.ts'
import type { Route } from './+types/study-record'

export function meta() {
  return [{ title: '学习记录 - 自学' }]
}

/** The first page for the member of the session cookie, read on the server (null: asked in the browser). */
export function loader({ context }: Route.LoaderArgs) {
  return memberData(context, (s, memberId) => s.studyRecord(memberId))
}

type RecordItem = z.infer<typeof StudyRecordItem>

/** /studyRecord: every lesson the member watched, newest first, with how far and a button to go on. */
export default function StudyRecord() {
  const initial = useServerData(useLoaderData<typeof loader>())
  const records = usePagedList<RecordItem>('/center/study_record', { member: true, query: { limit: 20 }, initial })
  return (
    <main className={styles.page}>
      <NavBar title="学习记录" backTo="/mine" />
      <StudyList
        of={records}
        login={{ reason: '登录后查看你的学习记录', target: '/studyRecord' }}
        label="学习记录"
        empty={{ message: '还没有学习记录，去挑一门课开始学吧', links: [{ to: '/ke', label: '浏览全部课程' }] }}
      >
        {(r) => (
          <StudyItem
            key={r.vid}
            coverTo={`/course/${r.course_id}.html`}
            cover={r.course_cover}
            title={r.video_title}
            detail={<span className={styles.sub}>{r.course_title}</span>}
            percent={r.percent}
            progressText={r.finished ? '已学完' : `${r.percent}%`}
            when={`${formatStudiedAt(r.updated_at)}${!r.finished && r.position > 0 ? ` · 看到 ${formatDuration(r.position)}` : ''}`}
            actionTo={`/v/${r.vid}.html`}
            actionText={r.finished ? '再看一遍' : '继续学习'}
          />
        )}
      </StudyList>
    </main>
  )
}
