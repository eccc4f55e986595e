import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { formatYuan } from '#shared/money.ts'
import { Cards, Price } from '../markup.tsx'

/** The same reads as the app's course page: the course, and the bundles holding it unless it is free. */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const s = services(context)
  const id = Number(/^\d+/.exec(params.id ?? '')?.[0])
  if (!id) throw data('课程不存在', { status: 404 })
  const course = await s.catalogue.courseDetail(id)
  const bundles = course.is_free ? [] : (await s.bundles.list(course.id)).list
  return { course, bundles }
}

export const meta = ({ loaderData }: { loaderData?: Awaited<ReturnType<typeof loader>> }) => [
  { title: `${loaderData?.course.title} - 自学` },
]

export default function Course() {
  const { course, bundles } = useLoaderData<typeof loader>()
  return (
    <main>
      <img src={course.cover} alt={course.title} width={640} height={360} />
      <h1>{course.title}</h1>
      <p>{course.subtitle}</p>
      <Price course={course} />
      <Link to={`/list/${course.category_id}`}>{course.category_name}</Link>
      {bundles.slice(0, 2).map((b) => (
        <Link key={b.id} to={`/foryou/${b.id}`}>
          {b.title} 含 {b.course_count} 门课 ¥{formatYuan(b.price_fen)}
        </Link>
      ))}
      {course.intro.split(/\n{2,}/).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      <Cards courses={course.sub_courses} />
      {course.chapters.map((chapter) => (
        <section key={chapter.id}>
          <h3>{chapter.title}</h3>
          <ol>
            {chapter.videos.map((v) => (
              <li key={v.id}>
                <Link to={`/v/${v.id}.html`}>
                  {v.title} {v.is_free ? '免费' : ''} {v.duration}
                </Link>
              </li>
            ))}
          </ol>
        </section>
      ))}
      {course.teacher ? (
        <Link to={`/teacher/${course.teacher.id}`}>
          {course.teacher.name} {course.teacher.title} {course.teacher.intro}
        </Link>
      ) : null}
      <Link to={`/course/coursePurchase?course_id=${course.id}`}>立即购买</Link>
    </main>
  )
}
