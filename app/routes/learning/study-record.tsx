import { Link } from 'react-router'
import { formatDuration } from '#app/components/course-card/course-format.ts'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, ListEnd, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import { StudyItem } from './study-parts.tsx'
import { formatStudiedAt, useMemberList } from './use-member-list.ts'
import styles from './study.module.css'
import type { z } from 'zod'
import type { StudyRecordItem } from '#server/modules/learning/learning.schema.ts'

export function meta() {
  return [{ title: '学习记录 - 自学' }]
}

type RecordItem = z.infer<typeof StudyRecordItem>

/** /studyRecord: every lesson the member watched, newest first, with how far and a button to go on. */
export default function StudyRecord() {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const { state, more, retry } = useMemberList<RecordItem>('/center/study_record', token)

  return (
    <main className={styles.page}>
      <NavBar title="学习记录" backTo="/mine" />
      {!hydrated ? <Loading /> : null}
      {hydrated && !token ? <LoginRequired reason="登录后查看你的学习记录" target="/studyRecord" /> : null}
      {hydrated && token && state.status === 'loading' ? <Loading /> : null}
      {hydrated && token && state.status === 'error' ? <LoadError message={state.message} onRetry={retry} /> : null}
      {hydrated && token && state.status === 'ready' && state.list.length === 0 ? (
        <div className={styles.emptyBox}>
          <Empty message="还没有学习记录，去挑一门课开始学吧" />
          <Link to="/ke" className={styles.primaryLink}>
            浏览全部课程
          </Link>
        </div>
      ) : null}
      {hydrated && token && state.status === 'ready' && state.list.length > 0 ? (
        <>
          <ul className={styles.list} aria-label="学习记录">
            {state.list.map((r) => (
              <StudyItem
                key={r.vid}
                coverTo={`/course/${r.course_id}.html`}
                cover={r.course_cover}
                title={r.video_title}
                detail={<span className={styles.sub}>{r.course_title}</span>}
                percent={r.percent}
                progressLabel="学习进度"
                progressText={r.finished ? '已学完' : `${r.percent}%`}
                when={`${formatStudiedAt(r.updated_at)}${!r.finished && r.position > 0 ? ` · 看到 ${formatDuration(r.position)}` : ''}`}
                actionTo={`/v/${r.vid}.html`}
                actionText={r.finished ? '再看一遍' : '继续学习'}
              />
            ))}
          </ul>
          <ListEnd hasMore={state.nextCursor !== null} state={state.loadingMore ? 'loading' : 'idle'} onMore={more} />
        </>
      ) : null}
    </main>
  )
}
