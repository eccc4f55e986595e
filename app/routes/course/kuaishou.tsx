import { Link, redirect, useLoaderData } from 'react-router'
import type { Route } from './+types/kuaishou'
import { CourseComments } from '#app/components/comments/course-comments.tsx'
import { formatCount, formatTotalDuration } from '#app/components/course-card/course-format.ts'
import { readById } from '#app/components/course-data/catalogue-loader.server.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { services } from '#app/lib/services-context.ts'
import { useWechatShare } from '#app/lib/wechat-share.ts'
import { ExchangeShops } from '#shared/exchange-platforms.ts'
import { CourseCover, TeacherSection } from './detail.tsx'
import parts from './detail-parts.module.css'
import styles from './detail.module.css'

const shop = ExchangeShops.kuaishou

/** Where the call to action leads: the Kuaishou exchange screen with this course in context. */
const exchangeHref = (courseId: number) => `${shop.page}?course_id=${courseId}`

/**
 * /course/ks/{id}: a course on sale in the Kuaishou shop (an operator mapped a Kuaishou SKU to it); any other id is
 * a 404. Without an id, the Kuaishou exchange screen itself.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  if (!params.id) throw redirect(shop.page)
  const course = await readById(params.id, '课程不存在', (id) => services(context).kuaishouCourse.course(id))
  return { course }
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: '课程不存在 - 自学' }]
  const c = loaderData.course
  return [
    { title: `${c.title}（快手小店） - 自学` },
    { name: 'description', content: `在快手小店购买了「${c.title}」？用订单号兑换，立即开始学习。` },
  ]
}

/** The landing page of a course sold on Kuaishou: what the course is, its comments, and the way to exchange. */
export default function KuaishouCourse() {
  const { course } = useLoaderData<typeof loader>()
  useWechatShare({ title: course.title, desc: '快手小店购买后，用订单号兑换即可学习', imgUrl: course.cover })
  const exchange = exchangeHref(course.id)
  return (
    <main className={styles.page}>
      <NavBar title="快手课程" backTo={shop.page} />
      <CourseCover course={course} />
      <section className={styles.info}>
        <h1 className={styles.title}>{course.title}</h1>
        {course.subtitle ? <p className={styles.subtitle}>{course.subtitle}</p> : null}
        <ul className={styles.tags} aria-label="课程信息">
          <li className={styles.typeTag}>快手小店在售</li>
          {course.teacher ? <li>讲师 {course.teacher.name}</li> : null}
          <li>{course.video_count} 节课</li>
          {course.duration_seconds > 0 ? <li>{formatTotalDuration(course.duration_seconds)}</li> : null}
          <li>{formatCount(course.student_count)}人学过</li>
        </ul>
      </section>

      <section className={styles.block} aria-labelledby="ks-how-title">
        <h2 id="ks-how-title" className={styles.blockTitle}>
          在快手买了这门课？
        </h2>
        <p className={styles.intro}>
          复制快手订单详情里的订单编号，到兑换页粘贴，课程立即开通，之后在“已购”里随时学习。
        </p>
        <Link to={exchange} className={`${parts.actionButton} ${parts.actionLearn}`}>
          去兑换课程
        </Link>
      </section>

      {course.teacher ? <TeacherSection teacher={course.teacher} /> : null}

      <CourseComments courseId={course.id} listPath="/ksxd/course/comments" />

      <p className={styles.end}>— 已经到底了 —</p>

      <div className="zx-bottomBar">
        <span className="zx-textColumn">
          <span className={parts.vipState}>快手订单兑换</span>
          <span className="zx-meta">已购买的学员免费开通</span>
        </span>
        <Link to={exchange} className={`${parts.actionButton} ${parts.actionLearn}`} data-testid="ks-exchange">
          用快手订单兑换
        </Link>
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="快手课程" />
}
