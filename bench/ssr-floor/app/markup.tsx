import { Link } from 'react-router'
import type { CourseCard } from '#shared/api/catalogue.ts'
import { formatYuan } from '#shared/money.ts'

/** A course card as plain markup: cover, title, teacher, learners, price. */
export function Card({ course }: { course: CourseCard }) {
  return (
    <Link to={`/course/${course.id}.html`}>
      <img src={course.cover} alt="" width={320} height={180} />
      <b>{course.title}</b>
      <small>
        {course.teacher_name} {course.student_count}人学过
      </small>
      <Price course={course} />
    </Link>
  )
}

export function Price({ course }: { course: Pick<CourseCard, 'is_free' | 'price_fen' | 'vip_free'> }) {
  if (course.is_free) return <em>免费</em>
  return (
    <em>
      ¥{formatYuan(course.price_fen)}
      {course.vip_free ? ' VIP免费' : ''}
    </em>
  )
}

export function Cards({ courses }: { courses: CourseCard[] }) {
  return (
    <ul>
      {courses.map((c) => (
        <li key={c.id}>
          <Card course={c} />
        </li>
      ))}
    </ul>
  )
}
