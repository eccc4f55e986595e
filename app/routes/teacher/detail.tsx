import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/detail'
import { CourseRow } from '#app/components/course-card/course-card.tsx'
import { formatCount } from '#app/components/course-card/course-format.ts'
import { readById } from '#app/components/course-data/catalogue-loader.server.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { FollowButton } from '#app/components/follow-button/follow-button.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty } from '#app/components/page-state/page-state.tsx'
import { Section } from '#app/components/section/section.tsx'
import { services } from '#app/lib/services-context.ts'
import styles from './teacher.module.css'
import { useWechatShare } from '#app/lib/wechat-share.ts'

/** /teacher/{id}: one teacher and their courses; /teacher: every teacher. A malformed or unknown id is a 404. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const s = services(context)
  if (params.id === undefined) return { teacher: null, teachers: await s.catalogue.teachers() }
  // The server render is anonymous: the follower count is public, the member's own state comes in the browser.
  return { teacher: await readById(params.id, '讲师不存在', (id) => s.follows.teacherProfile(id, null)), teachers: [] }
}

export function meta({ loaderData }: Route.MetaArgs) {
  const t = loaderData?.teacher
  if (t)
    return [{ title: `${t.name} - 讲师 - 自学` }, { name: 'description', content: `${t.name}，${t.title}。${t.intro}` }]
  return [
    { title: '讲师团队 - 自学' },
    { name: 'description', content: '自学的讲师团队：设计、办公、绘画、漫画、剪辑领域的一线从业者。' },
  ]
}

function Avatar({ src, name, size }: { src: string | null; name: string; size: number }) {
  return src ? (
    <img src={src} alt="" width={size} height={size} className={styles.avatar} style={{ width: size, height: size }} />
  ) : (
    <span className={styles.avatar} style={{ width: size, height: size }} aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  )
}

/** A teacher's profile with their courses, or the list of all teachers. */
export default function TeacherPage() {
  const { teacher, teachers } = useLoaderData<typeof loader>()
  useWechatShare(
    teacher
      ? { title: `${teacher.name} - 自学讲师`, desc: `${teacher.title}。${teacher.intro}`, imgUrl: teacher.avatar }
      : { title: '自学讲师团队', desc: '设计、办公、绘画、漫画、剪辑领域的一线从业者。' },
  )

  if (!teacher) {
    return (
      <main className={styles.page}>
        <NavBar title="讲师团队" />
        {teachers.length === 0 ? (
          <Empty message="还没有讲师" />
        ) : (
          <ul className={styles.teacherList}>
            {teachers.map((t) => (
              <li key={t.id}>
                <Link to={`/teacher/${t.id}`} className={styles.teacherRow}>
                  <Avatar src={t.avatar} name={t.name} size={48} />
                  <span className={styles.rowText}>
                    <span className={styles.rowName}>{t.name}</span>
                    <span className={styles.rowTitle}>{t.title}</span>
                  </span>
                  <span className={styles.rowCount}>{t.course_count} 门课</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </main>
    )
  }

  return (
    <main className={styles.page}>
      <NavBar title="讲师主页" backTo="/teacher" />
      <section className={styles.profile}>
        <div className={styles.head}>
          <Avatar src={teacher.avatar} name={teacher.name} size={72} />
          <div className={styles.headText}>
            <h1 className={styles.name}>{teacher.name}</h1>
            <p className={styles.title}>{teacher.title}</p>
          </div>
          <FollowButton teacherId={teacher.id} followers={teacher.follower_count} />
        </div>
        <dl className={styles.stats}>
          <div>
            <dt>课程</dt>
            <dd>{teacher.course_count}</dd>
          </div>
          <div>
            <dt>学员</dt>
            <dd>{formatCount(teacher.student_count)}</dd>
          </div>
        </dl>
        {teacher.intro ? <p className={styles.intro}>{teacher.intro}</p> : null}
      </section>
      <Section id="teacher-courses" title="TA 的课程" className={styles.courses} titleClassName={styles.sectionTitle}>
        {teacher.courses.length === 0 ? (
          <Empty message="这位讲师还没有上架课程" />
        ) : (
          <ul className="zx-dividedList">
            {teacher.courses.map((c, i) => (
              <li key={c.id}>
                <CourseRow course={c} eager={i < 2} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="讲师主页" />
}
