import { Link } from 'react-router'
import { systemCourseOrList, type CourseOfType } from '#app/components/course-data/catalogue-loader.server.ts'
import { courseTypeScreen } from '#app/components/course-list/course-type-screen.tsx'
import { formatCount } from '#app/components/course-card/course-format.ts'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Section } from '#app/components/section/section.tsx'
import { useAuth } from '#app/lib/use-auth.ts'
import { ProgressRow } from './study-parts.tsx'
import { useSystemProgress } from './system-programme.ts'
import styles from './study.module.css'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { z } from 'zod'
import type { StatusResponse } from '#server/modules/tuition/tuition.schema.ts'
import { groupJoinHint } from './group-join.ts'

type Status = z.infer<typeof StatusResponse>['data']

/**
 * /course/systemGroup?id=1038: the study group of a system course — what it offers, how to join (through the
 * class teacher on WeCom, /customerG), and the member's place in the programme. Without an id: the system courses.
 */
export const loader = systemCourseOrList
const screen = courseTypeScreen('systemGroup', Group)
export const meta = screen.meta
export default screen.Screen
export const ErrorBoundary = screen.ErrorBoundary

const BENEFITS = [
  '班主任每周发布学习计划，提醒进度',
  '作业提交后老师点评',
  '同期学员一起打卡、交流作品',
  '课程更新和直播答疑第一时间通知',
]

function Group({ course }: { course: CourseOfType }) {
  const { token } = useAuth()
  const progress = useSystemProgress(course.id)
  const enrolment = useApiGet<Status>('/course/bs', { query: { id: course.id } }).data
  return (
    <main className={styles.page}>
      <NavBar title="学习群" backTo={`/course/systemCourse?id=${course.id}`} />
      <section className={styles.hero}>
        <h1 className={styles.heroTitle}>{course.title} · 学习群</h1>
        <p className={styles.heroText}>{formatCount(course.student_count)} 位同学在这个班学习</p>
        {progress ? (
          <ProgressRow percent={progress.overall.percent} label="我的进度">
            我的进度 {progress.overall.percent}%
          </ProgressRow>
        ) : null}
      </section>
      <Section
        id="benefits-title"
        title="群里有什么"
        className="zx-surfaceSection"
        titleClassName={styles.sectionTitle}
      >
        <ul>
          {BENEFITS.map((b) => (
            <li key={b} className={styles.stage}>
              <span className={styles.stageNo} aria-hidden="true">
                ✓
              </span>
              <span className={styles.body}>{b}</span>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="join-title" title="怎么加入" className="zx-surfaceSection" titleClassName={styles.sectionTitle}>
        <p className={styles.heroText}>{groupJoinHint(enrolment?.status ?? null, !!progress?.joined, !!token)}</p>
        <div className={styles.emptyBox}>
          <Link to="/customerG" className={styles.primaryLink}>
            联系班主任入群
          </Link>
          <Link to={`/course/systemCourse?id=${course.id}`} className={styles.secondaryLink}>
            查看学习计划
          </Link>
        </div>
      </Section>
    </main>
  )
}
