import { Link } from 'react-router'
import { CourseRow } from '#app/components/course-card/course-card.tsx'
import { courseHref, formatDuration } from '#app/components/course-card/course-format.ts'
import { CoursePrice } from '#app/components/course-card/course-price.tsx'
import { systemCourseOrList, type CourseOfType } from '#app/components/course-data/catalogue-loader.server.ts'
import { courseTypeScreen } from '#app/components/course-list/course-type-screen.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { useCourseAccess } from '#app/components/player/use-course-access.ts'
import { Section } from '#app/components/section/section.tsx'
import { EnrolmentStatus } from './enrolment-status.tsx'
import { ProgressRow } from './study-parts.tsx'
import { useSystemProgress } from './system-programme.ts'
import styles from './study.module.css'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/**
 * /course/systemCourse?id=1038: a system course as an ordered programme of courses, with the member's progress
 * in each and overall. Without an id it lists the system courses; a course that is not one leads to its page.
 */
export const loader = systemCourseOrList
const screen = courseTypeScreen('systemCourse', Programme)
export const meta = screen.meta
export default screen.Screen
export const ErrorBoundary = screen.ErrorBoundary

function Programme({ course }: { course: CourseOfType }) {
  const progress = useSystemProgress(course.id)
  const access = useCourseAccess(course.id)
  const intro = course.chapters.flatMap((c) => c.videos)
  const byCourse = new Map(progress?.courses.map((c) => [c.course_id, c]))
  const total = progress?.overall
  const lastVid = total?.last_vid ?? null

  return (
    <main className={styles.page}>
      <NavBar title="学习计划" backTo={courseHref(course.id)} />
      <section className={styles.hero}>
        <CoverImage className={styles.heroCover} src={course.cover} alt={course.title} width={640} height={360} />
        <h1 className={styles.heroTitle}>{course.title}</h1>
        <p className={styles.heroText}>{course.subtitle || `共 ${course.sub_courses.length} 门课，按顺序学习`}</p>
        {total ? (
          <ProgressRow percent={total.percent} label="总进度">
            总进度 {total.percent}%（{total.finished_count}/{total.video_count} 节）
          </ProgressRow>
        ) : null}
      </section>

      <EnrolmentStatus courseId={course.id} />

      {intro.length > 0 ? (
        <Section id="intro-title" title="开班导学" className="zx-surfaceSection" titleClassName={styles.sectionTitle}>
          <ol>
            {intro.map((v) => (
              <li key={v.id} className={styles.stage}>
                <span className={styles.stageNo} aria-hidden="true">
                  ▶
                </span>
                <Link to={`/v/${v.id}.html`} className={styles.body}>
                  <span className="zx-rowTitle">{v.title}</span>
                  <span className={styles.sub}>{formatDuration(v.duration)}</span>
                </Link>
              </li>
            ))}
          </ol>
        </Section>
      ) : null}

      <Section
        id="route-title"
        title={
          <>
            学习路线 <span className="zx-titleNote">共 {course.sub_courses.length} 个阶段</span>
          </>
        }
        className="zx-surfaceSection"
        titleClassName={styles.sectionTitle}
      >
        <ol>
          {course.sub_courses.map((part, i) => {
            const p = byCourse.get(part.id)
            const done = p !== undefined && p.video_count > 0 && p.finished_count >= p.video_count
            return (
              <li key={part.id} className={styles.stage}>
                <span
                  className={done ? `${styles.stageNo} ${styles.stageDone}` : styles.stageNo}
                  aria-label={`第 ${i + 1} 阶段`}
                >
                  {done ? '✓' : i + 1}
                </span>
                <div className={styles.body}>
                  <CourseRow course={part} compact />
                  {p ? (
                    <ProgressRow
                      percent={p.percent}
                      label={`${part.title} 进度`}
                      after={
                        p.last_vid ? (
                          <Link to={`/v/${p.last_vid}.html`} className={styles.continue}>
                            继续
                          </Link>
                        ) : null
                      }
                    >
                      {p.finished_count}/{p.video_count} 节
                    </ProgressRow>
                  ) : null}
                </div>
              </li>
            )
          })}
        </ol>
      </Section>

      <section className="zx-surfaceSection">
        <Link to={`/course/systemGroup?id=${course.id}`} className={styles.secondaryLink}>
          加入本班学习群 ›
        </Link>
      </section>

      <div className={styles.spacer} />
      <div className={styles.actionBar}>
        <span className={styles.actionText}>
          {access?.mode === 'full' ? (
            progress?.joined ? (
              '接着上次的进度学'
            ) : (
              '你已可以学习全部课程'
            )
          ) : (
            <CoursePrice course={course} />
          )}
        </span>
        {access?.mode === 'full' ? (
          <Link
            to={
              lastVid
                ? `/v/${lastVid}.html`
                : course.sub_courses[0]
                  ? courseHref(course.sub_courses[0].id)
                  : courseHref(course.id)
            }
            className={styles.actionButton}
          >
            {lastVid ? '继续学习' : '开始学习'}
          </Link>
        ) : (
          <Link to={courseHref(course.id)} className={styles.actionButton}>
            查看课程详情
          </Link>
        )}
      </div>
    </main>
  )
}
