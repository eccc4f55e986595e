import { Link } from 'react-router'
import type { CourseDetail } from '#shared/api/catalogue.ts'
import parts from './detail-parts.module.css'
import styles from './detail.module.css'

// Pieces of a course's page that its other landing pages show too (the course page, the Kuaishou landing).

/** The course's cover at the top of its page: the page's largest image, loaded first. */
export function CourseCover({ course }: { course: Pick<CourseDetail, 'cover' | 'title'> }) {
  return (
    <img
      className={styles.cover}
      src={course.cover}
      alt={course.title}
      width={640}
      height={360}
      fetchPriority="high"
      loading="eager"
      decoding="sync"
    />
  )
}

/** The teacher's section: avatar (or initial), name, title and introduction, linking to their page. */
export function TeacherSection({ teacher }: { teacher: NonNullable<CourseDetail['teacher']> }) {
  return (
    <section id="teacher" className={styles.block} aria-labelledby="teacher-title">
      <h2 id="teacher-title" className={styles.blockTitle}>
        讲师
      </h2>
      <Link to={`/teacher/${teacher.id}`} className={parts.teacher}>
        {teacher.avatar ? (
          <img src={teacher.avatar} alt="" width={56} height={56} loading="lazy" className={parts.avatar} />
        ) : (
          <span className={parts.avatar} aria-hidden="true">
            {teacher.name.slice(0, 1)}
          </span>
        )}
        <span className={parts.teacherText}>
          <span className={parts.teacherName}>{teacher.name}</span>
          <span className="zx-meta">{teacher.title}</span>
          <span className={parts.teacherIntro}>{teacher.intro}</span>
        </span>
        <span className={parts.chevron} aria-hidden="true">
          ›
        </span>
      </Link>
    </section>
  )
}
