import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import { StudyItem } from './study-parts.tsx'
import { formatStudiedAt } from './use-member-list.ts'
import styles from './study.module.css'
import type { z } from 'zod'
import type { SystemCourseList } from '#server/modules/learning/learning.schema.ts'

export function meta() {
  return [{ title: '我的体系课 - 自学' }]
}

type Joined = z.infer<typeof SystemCourseList>['list'][number]

type State = { key: string; status: 'ready'; list: Joined[] } | { key: string; status: 'error'; message: string }

/** /ke3: the system courses the member joined (bought or started), each with its overall progress. */
export default function MySystemCourses() {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [attempt, setAttempt] = useState(0)
  const [state, setState] = useState<State | null>(null)
  const key = `${token ?? ''}:${attempt}`

  useEffect(() => {
    if (!token) return
    const controller = new AbortController()
    api
      .get<{ list: Joined[] }>('/center/system_courses', undefined, { quiet: true, signal: controller.signal })
      .then((data) => setState({ key, status: 'ready', list: data.list }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setState({ key, status: 'error', message: errorMessage(error, '加载失败，请重试') })
      })
    return () => controller.abort()
  }, [token, key])

  const current = state?.key === key ? state : null
  return (
    <main className={styles.page}>
      <NavBar title="我的体系课" backTo="/ke1" />
      {!hydrated ? <Loading /> : null}
      {hydrated && !token ? <LoginRequired reason="登录后查看你加入的体系课" target="/ke3" /> : null}
      {hydrated && token && !current ? <Loading /> : null}
      {current?.status === 'error' ? (
        <LoadError message={current.message} onRetry={() => setAttempt((n) => n + 1)} />
      ) : null}
      {current?.status === 'ready' && current.list.length === 0 ? (
        <div className={styles.emptyBox}>
          <Empty message="还没有加入体系课。体系课把几门课按学习路线串起来，一条路学到底" />
          <Link to="/ke?type=system" className={styles.primaryLink}>
            看看体系课
          </Link>
        </div>
      ) : null}
      {current?.status === 'ready' && current.list.length > 0 ? (
        <ul className={styles.list} aria-label="我的体系课">
          {current.list.map((c) => (
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
              when={
                c.progress.last_studied_at ? `上次学习 ${formatStudiedAt(c.progress.last_studied_at)}` : '还没开始学'
              }
              actionTo={c.progress.last_vid ? `/v/${c.progress.last_vid}.html` : `/course/systemCourse?id=${c.id}`}
              actionText={c.progress.last_vid ? '继续学习' : '开始学习'}
            />
          ))}
        </ul>
      ) : null}
    </main>
  )
}
