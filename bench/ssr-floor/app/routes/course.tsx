import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { formatYuan } from '#shared/money.ts'
import {
  COURSE_TYPE_LABEL,
  LEVEL_LABEL,
  formatCount,
  formatDuration,
  formatTotalDuration,
  previewLabel,
} from '#app/components/course-card/course-format.ts'
import { Cards, Price } from '../markup.tsx'
import { BackIcon, HeartIcon } from '../icons.tsx'

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

/**
 * What the app's course page shows: the bar, cover, title, price and tags, the bundles, the section links, the
 * introduction, the chapters and lessons with their preview labels, the teacher, the comments' heading and the buy bar.
 */
export default function Course() {
  const { course, bundles } = useLoaderData<typeof loader>()
  const trials = course.chapters.flatMap((c) => c.videos).filter((v) => v.is_free || v.free_seconds > 0).length
  let n = 0
  return (
    <main>
      <Link to="/">
        <BackIcon />
      </Link>
      课程详情
      <button type="button">
        <HeartIcon />
      </button>
      <img src={course.cover} alt={course.title} width={640} height={360} />
      <h1>{course.title}</h1>
      <p>{course.subtitle}</p>
      <Price course={course} />
      {formatCount(course.student_count)}人学过
      <p>
        {COURSE_TYPE_LABEL[course.type]} {LEVEL_LABEL[course.level] ?? course.level}{' '}
        <Link to={`/list/${course.category_id}`}>{course.category_name}</Link> {course.video_count} 节
        {trials > 0 && !course.is_free ? ` ${trials} 节可试看` : ''}
      </p>
      {bundles.slice(0, 2).map((b) => (
        <Link key={b.id} to={`/foryou/${b.id}`}>
          套餐 {b.title} 含 {b.course_count} 门课，套餐价 ¥{formatYuan(b.price_fen)}
          {b.list_price_fen > b.price_fen ? `，省 ¥${formatYuan(b.list_price_fen - b.price_fen)}` : ''} ›
        </Link>
      ))}
      <nav>
        <a href="#intro">简介</a>
        <a href="#chapters">目录</a>
        <a href="#teacher">讲师</a>
        <a href="#comments">评论</a>
      </nav>
      <h2 id="intro">课程简介</h2>
      {course.intro.split(/\n{2,}/).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
      <Cards courses={course.sub_courses} />
      <h2 id="chapters">
        课程目录 共 {course.video_count} 节 · {formatTotalDuration(course.duration_seconds)}
      </h2>
      {course.chapters.map((chapter, ci) => (
        <section key={chapter.id}>
          <h3>
            第 {ci + 1} 章 {chapter.title}
          </h3>
          <ol>
            {chapter.videos.map((v) => (
              <li key={v.id}>
                <Link to={`/v/${v.id}.html`}>
                  {++n} {v.title}{' '}
                  {course.is_free ? '' : v.is_free ? '免费' : v.free_seconds > 0 ? previewLabel(v.free_seconds) : ''}{' '}
                  {formatDuration(v.duration)}
                </Link>
              </li>
            ))}
          </ol>
        </section>
      ))}
      {course.teacher ? (
        <>
          <h2 id="teacher">讲师</h2>
          <Link to={`/teacher/${course.teacher.id}`}>
            {course.teacher.avatar ? <img src={course.teacher.avatar} alt="" width={56} height={56} /> : null}
            {course.teacher.name} {course.teacher.title} {course.teacher.intro} ›
          </Link>
        </>
      ) : null}
      <h2 id="comments">学员评论</h2>
      <p>评论加载中…</p>
      <p>— 已经到底了 —</p>
      <Price course={course} />
      <Link to={`/course/coursePurchase?course_id=${course.id}`}>立即购买 ¥{formatYuan(course.price_fen)}</Link>
    </main>
  )
}
