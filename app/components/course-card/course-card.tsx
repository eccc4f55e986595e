import { sendStat } from '#app/lib/stat.ts'
import { BareLink } from '#app/components/bare-link/bare-link.tsx'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'
import type { CardFields } from './card-fields.ts'
import { COURSE_TYPE_LABEL, courseHref, formatCount } from './course-format.ts'
import { CoursePrice } from './course-price.tsx'
import styles from './course-card.module.css'

interface CardProps {
  course: CardFields
  /** Above the fold: load the cover at once instead of lazily. */
  eager?: boolean
}

function Cover({ course, eager, className, sizes }: CardProps & { className: string | undefined; sizes: string }) {
  return (
    <span className={className}>
      <CoverImage src={course.cover} sizes={sizes} width={320} height={180} loading={eager ? 'eager' : 'lazy'} />
      {course.type !== 'series' ? <span className={styles.typeTag}>{COURSE_TYPE_LABEL[course.type]}</span> : null}
    </span>
  )
}

function Meta({ course }: { course: CardFields }) {
  return (
    <span className={styles.meta}>
      {course.teacher_name ? <span className={styles.teacher}>{course.teacher_name}</span> : null}
      <span>{`${formatCount(course.student_count)}人学过`}</span>
    </span>
  )
}

/**
 * A course as a row: cover on the left, title, teacher, learners and price on the right (`owned`: whether the
 * member bought it, when the list's answer said so; otherwise asked in the browser).
 */
export function CourseRow({
  course,
  eager,
  rank,
  compact = false,
  owned,
}: CardProps & { rank?: number; compact?: boolean; owned?: boolean }) {
  return (
    <BareLink
      to={courseHref(course.id)}
      className={compact ? `${styles.row} ${styles.compact}` : styles.row}
      onClick={() => sendStat('project')}
    >
      {rank !== undefined ? (
        <span className={rank <= 3 ? `${styles.rank} ${styles.rankTop}` : styles.rank} aria-label={`第 ${rank} 名`}>
          {rank}
        </span>
      ) : null}
      <Cover course={course} eager={eager} className={styles.rowCover} sizes={compact ? '104px' : '128px'} />
      <span className={styles.rowBody}>
        <span className={styles.title}>{course.title}</span>
        <Meta course={course} />
        <CoursePrice course={course} owned={owned} />
      </span>
    </BareLink>
  )
}

/** A course as a grid tile: cover on top, then title and price. */
export function CourseTile({ course, eager }: CardProps) {
  return (
    <BareLink to={courseHref(course.id)} className={styles.tile} onClick={() => sendStat('project')}>
      <Cover course={course} eager={eager} className={styles.tileCover} sizes="(min-width: 500px) 240px, 50vw" />
      <span className={styles.tileBody}>
        <span className={styles.title}>{course.title}</span>
        <span className={styles.tileFoot}>
          <CoursePrice course={course} />
          <span className={styles.tileStudents}>{`${formatCount(course.student_count)}人学过`}</span>
        </span>
      </span>
    </BareLink>
  )
}
