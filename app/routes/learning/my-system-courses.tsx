import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { StudyList } from './study-list.tsx'
import { StudyItem } from './study-parts.tsx'
import { lastStudied } from './studied-at.ts'
import styles from './study.module.css'
import type { z } from 'zod'
import type { SystemCourseList } from '#server/modules/learning/learning.schema.ts'

export function meta() {
  return [{ title: '我的体系课 - 自学' }]
}

type Joined = z.infer<typeof SystemCourseList>['list'][number]

/** /ke3: the system courses the member joined (bought or started), each with its overall progress. */
export default function MySystemCourses() {
  const joined = useApiGet<{ list: Joined[] }>('/center/system_courses', { member: true })
  return (
    <main className={styles.page}>
      <NavBar title="我的体系课" backTo="/ke1" />
      <StudyList
        of={joined}
        login={{ reason: '登录后查看你加入的体系课', target: '/ke3' }}
        label="我的体系课"
        empty={{
          message: '还没有加入体系课。体系课把几门课按学习路线串起来，一条路学到底',
          links: [{ to: '/ke?type=system', label: '看看体系课' }],
        }}
      >
        {(c) => (
          <StudyItem
            key={c.id}
            coverTo={`/course/systemCourse?id=${c.id}`}
            cover={c.cover}
            title={c.title}
            detail={
              <span className={styles.sub}>
                {c.course_count} 门课 · 已学 {c.progress.finished_count}/{c.progress.video_count} 节
              </span>
            }
            percent={c.progress.percent}
            progressLabel="总进度"
            progressText={`${c.progress.percent}%`}
            when={lastStudied(c.progress.last_studied_at)}
            actionTo={c.progress.last_vid ? `/v/${c.progress.last_vid}.html` : `/course/systemCourse?id=${c.id}`}
            actionText={c.progress.last_vid ? '继续学习' : '开始学习'}
          />
        )}
      </StudyList>
    </main>
  )
}
