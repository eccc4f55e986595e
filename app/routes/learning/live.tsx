import { useEffect, useRef, useState } from 'react'
import { Link, useRevalidator } from 'react-router'
import type { Route } from './+types/live'
import { courseHref, formatDuration } from '#app/components/course-card/course-format.ts'
import { beijingDayAndTime } from '#app/lib/beijing-format.ts'
import { CoursePrice } from '#app/components/course-card/course-price.tsx'
import { courseOfTypeOrList, type CourseOfType } from '#app/components/course-data/catalogue-loader.server.ts'
import { courseTypeScreen } from '#app/components/course-list/course-type-screen.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty } from '#app/components/page-state/page-state.tsx'
import { AccessPrompt, StageMessage } from '#app/components/player/access-prompt.tsx'
import { useCourseAccess } from '#app/components/player/use-course-access.ts'
import { VideoPlayer } from '#app/components/player/video-player.tsx'
import { Section } from '#app/components/section/section.tsx'
import { services } from '#app/lib/services-context.ts'
import styles from './live.module.css'
import study from './study.module.css'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/**
 * /li/{course_id}.html: a live course's schedule and status (upcoming, live, replay). /li alone lists the live
 * courses; an id that is not a live course leads to its course page.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  return courseOfTypeOrList(services(context).catalogue, 'live', params.id, {
    missing: '直播课不存在',
    search: new URL(request.url).search,
  })
}

const screen = courseTypeScreen('live', LivePage)
export const meta = screen.meta
export default screen.Screen
export const ErrorBoundary = screen.ErrorBoundary

const STATUS_LABEL = { upcoming: '即将开始', live: '直播中', ended: '已结束' } as const

/** "2 天 03:04:05" until the start; revalidates the page when it is reached, so the status turns live. */
function Countdown({ startsAt }: { startsAt: string }) {
  const revalidator = useRevalidator()
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    const tick = () => setNow(Date.now())
    const first = setTimeout(tick, 0)
    const timer = setInterval(tick, 1000)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [])
  const left = now === null ? null : Date.parse(startsAt) - now
  const reached = left !== null && left <= 0
  useEffect(() => {
    if (reached) void revalidator.revalidate()
  }, [reached, revalidator])
  if (left === null || left <= 0) return null
  const s = Math.floor(left / 1000)
  const days = Math.floor(s / 86_400)
  const hms = formatDuration(s % 86_400).padStart(5, '0')
  return (
    <p className={styles.countdown} role="timer">
      距开播 {days > 0 ? `${days} 天 ` : ''}
      {hms}
    </p>
  )
}

function LiveStage({ course }: { course: CourseOfType }) {
  const access = useCourseAccess(course.id)
  const videoRef = useRef<HTMLVideoElement | null>(null)
  const [fatal, setFatal] = useState<string | null>(null)
  if (!access) return <div className={styles.stagePlaceholder} aria-busy="true" />
  if (access.mode !== 'full')
    return (
      <div className={styles.stageBox}>
        <AccessPrompt kind="locked" course={course} loginHint={access.login_required} />
      </div>
    )
  if (!access.live_pull_url)
    return (
      <div className={styles.stageBox}>
        <StageMessage text="直播信号准备中，请稍候刷新" />
      </div>
    )
  return (
    <VideoPlayer
      videoRef={videoRef}
      src={fatal ? null : access.live_pull_url}
      poster={course.cover}
      startAt={0}
      untilSecond={null}
      rate={1}
      onPreviewEnd={() => {}}
      onEnded={() => {}}
      onFatal={setFatal}
    >
      {fatal ? <StageMessage text={fatal} action="重新连接" onAction={() => setFatal(null)} /> : null}
    </VideoPlayer>
  )
}

function LivePage({ course }: { course: CourseOfType }) {
  const status = course.live_status ?? 'ended'
  const replays = course.chapters.flatMap((c) => c.videos)
  return (
    <main className={study.page}>
      <NavBar title="直播课" backTo={courseHref(course.id)} />
      {status === 'live' ? (
        <LiveStage course={course} />
      ) : (
        <div className={styles.coverBox}>
          <CoverImage className={styles.cover} src={course.cover} alt={course.title} width={640} height={360} />
          <span className={status === 'upcoming' ? styles.badge : `${styles.badge} ${styles.badgeEnded}`}>
            {STATUS_LABEL[status]}
          </span>
        </div>
      )}
      <section className={styles.info}>
        <h1 className={styles.title}>
          {status === 'live' ? <span className={`${styles.badgeInline} ${styles.badgeLive}`}>直播中</span> : null}
          {course.title}
        </h1>
        {course.subtitle ? <p className={styles.subtitle}>{course.subtitle}</p> : null}
        <CoursePrice course={course} />
      </section>

      <Section id="schedule-title" title="课程安排" className="zx-surfaceSection" titleClassName={study.sectionTitle}>
        {course.live_starts_at ? (
          <dl className={styles.schedule}>
            <dt>开播时间</dt>
            <dd>{beijingDayAndTime(new Date(course.live_starts_at))}（北京时间）</dd>
            {course.live_ends_at ? (
              <>
                <dt>预计结束</dt>
                <dd>{beijingDayAndTime(new Date(course.live_ends_at))}</dd>
              </>
            ) : null}
            {course.teacher ? (
              <>
                <dt>主讲老师</dt>
                <dd>
                  <Link to={`/teacher/${course.teacher.id}`} className="zx-tapTarget">
                    {course.teacher.name}
                  </Link>
                  {course.teacher.title ? ` · ${course.teacher.title}` : ''}
                </dd>
              </>
            ) : null}
          </dl>
        ) : (
          <Empty message="开播时间待定" />
        )}
        {status === 'upcoming' && course.live_starts_at ? <Countdown startsAt={course.live_starts_at} /> : null}
      </Section>

      <Section id="replay-title" title="直播回放" className="zx-surfaceSection" titleClassName={study.sectionTitle}>
        {replays.length === 0 ? (
          <Empty message={status === 'ended' ? '回放正在整理中，稍后上线' : '直播结束后，回放会出现在这里'} />
        ) : (
          <ol className={styles.replays}>
            {replays.map((v) => (
              <li key={v.id}>
                <Link to={`/v/${v.id}.html`} className={styles.replay}>
                  <span className={`${study.circle} ${styles.play}`} aria-hidden="true">
                    ▶
                  </span>
                  <span className={styles.replayTitle}>{v.title}</span>
                  <span className={styles.replayTime}>{formatDuration(v.duration)}</span>
                </Link>
              </li>
            ))}
          </ol>
        )}
      </Section>

      <p className={styles.more}>
        <Link to={courseHref(course.id)}>查看课程介绍 ›</Link>
      </p>
    </main>
  )
}
