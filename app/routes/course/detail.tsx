import { sendStat } from '#app/lib/stat.ts'
import { Link, useLoaderData } from 'react-router'
import { BareLink } from '#app/components/bare-link/bare-link.tsx'
import type { Route } from './+types/detail'
import type { CourseDetail as CourseDetailShape } from '#shared/api/catalogue.ts'
import { CourseComments } from '#app/components/comments/course-comments.tsx'
import { CourseRow } from '#app/components/course-card/course-card.tsx'
import {
  COURSE_TYPE_LABEL,
  courseHref,
  formatCount,
  formatDuration,
  formatTotalDuration,
  LEVEL_LABEL,
  previewLabel,
} from '#app/components/course-card/course-format.ts'
import { formatYuan } from '#shared/money.ts'
import { CoursePrice } from '#app/components/course-card/course-price.tsx'
import { readById } from '#app/components/course-data/catalogue-loader.server.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { FavouriteButton } from '#app/components/favourite-button/favourite-button.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty } from '#app/components/page-state/page-state.tsx'
import { useCourseAccess, type CourseAccess } from '#app/components/player/use-course-access.ts'
import { beijingDayAndTime } from '#app/lib/beijing-format.ts'
import { services } from '#app/lib/services-context.ts'
import { AccessReasons } from './access-reasons.tsx'
import parts from './detail-parts.module.css'
import styles from './detail.module.css'
import { useWechatShare } from '#app/lib/wechat-share.ts'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/** /course/1001 and /course/1001.html are the same page (spec 2); anything else is a 404. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const s = services(context)
  const course = await readById(params.id, '课程不存在', (id) => s.catalogue.courseDetail(id))
  // The bundles on sale that hold this course: "买套餐更划算" under the price.
  const bundles = course.is_free ? [] : (await s.bundles.list(course.id)).list
  return { course, bundles }
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: '课程不存在 - 自学' }]
  const c = loaderData.course
  const description = c.subtitle || c.intro.split('\n')[0] || c.title
  return [
    { title: `${c.title} - 自学` },
    { name: 'description', content: description },
    { property: 'og:title', content: c.title },
    { property: 'og:description', content: description },
    { property: 'og:image', content: c.cover },
    { tagName: 'link', rel: 'canonical', href: courseHref(c.id) },
  ]
}

type Course = Awaited<ReturnType<typeof loader>>['course']

/** "适合人群：…" paragraphs get their label in bold. */
function Paragraph({ text }: { text: string }) {
  const m = /^([^：\n]{2,6})：([\s\S]*)$/.exec(text)
  if (!m) return <p>{text}</p>
  return (
    <p>
      <strong>{`${m[1]}：`}</strong>
      {m[2]}
    </p>
  )
}

function LiveLine({ course }: { course: Course }) {
  if (course.type !== 'live' || !course.live_starts_at) return null
  const when = beijingDayAndTime(new Date(course.live_starts_at))
  const status =
    course.live_status === 'upcoming' ? '即将开始' : course.live_status === 'live' ? '直播中' : '已结束，可看回放'
  return (
    <p className={styles.live}>
      <span className={course.live_status === 'live' ? `${styles.liveBadge} ${styles.liveNow}` : styles.liveBadge}>
        {status}
      </span>
      直播时间：{when}（北京时间）
    </p>
  )
}

function Chapters({ course }: { course: Course }) {
  if (course.video_count === 0) {
    return (
      <Empty
        message={
          course.type === 'live' && course.live_status !== 'ended'
            ? '直播结束后，回放视频会出现在这里'
            : '课程视频正在准备中'
        }
      />
    )
  }
  // A course has dozens of lessons: their rows carry no class each, the list's stylesheet places their parts
  // (detail.module.css, "The chapter list"), which keeps the server render lighter (issue 11 §3).
  let n = 0
  return (
    <ol className={styles.chapters}>
      {course.chapters.map((chapter, ci) => (
        <li key={chapter.id}>
          <h3>
            {course.chapters.length > 1 ? <span>{`第 ${ci + 1} 章`}</span> : null}
            {chapter.title}
          </h3>
          <ol>
            {chapter.videos.map((v) => {
              n++
              return (
                <li key={v.id}>
                  <BareLink to={`/v/${v.id}.html`} prefetch={false}>
                    <span>{n}</span>
                    {v.title}
                    {course.is_free ? null : v.is_free ? (
                      <span className={styles.trial}>免费</span>
                    ) : v.free_seconds > 0 ? (
                      <span className={styles.trial}>{previewLabel(v.free_seconds)}</span>
                    ) : null}
                    <span>{formatDuration(v.duration)}</span>
                  </BareLink>
                </li>
              )
            })}
          </ol>
        </li>
      ))}
    </ol>
  )
}

// Pieces of a course's page that its other landing pages show too (the Kuaishou landing imports them from here,
// so that they ride in this page's own chunk and stylesheet: a shared module would add one to the course page).

/** The course's cover at the top of its page: the page's largest image, loaded first. */
export function CourseCover({ course }: { course: Pick<CourseDetailShape, 'cover' | 'title'> }) {
  return (
    <CoverImage
      className={styles.cover}
      src={course.cover}
      alt={course.title}
      sizes="(min-width: 500px) 500px, 100vw"
      width={640}
      height={360}
      fetchPriority="high"
      decoding="sync"
    />
  )
}

/** The teacher's section: avatar (or initial), name, title and introduction, linking to their page. */
export function TeacherSection({ teacher }: { teacher: NonNullable<CourseDetailShape['teacher']> }) {
  return (
    <section id="teacher" className={styles.block} aria-labelledby="teacher-title">
      <h2 id="teacher-title" className={styles.blockTitle}>
        讲师
      </h2>
      <BareLink to={`/teacher/${teacher.id}`} className={parts.teacher} prefetch={false}>
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
      </BareLink>
    </section>
  )
}

/** Where the bar's learning button leads, once GET /api/course/access said what this visitor may do. */
function learnLink(course: Course, access: CourseAccess): { to: string; label: string } | null {
  if (course.type === 'live')
    return access.mode === 'full' ? { to: `/li/${course.id}.html`, label: '进入直播间' } : null
  if (course.type === 'system')
    return access.mode === 'full' ? { to: `/course/systemCourse?id=${course.id}`, label: '查看学习计划' } : null
  if (access.mode === 'full' && access.resume) return { to: `/v/${access.resume.vid}.html`, label: '继续学习' }
  if (access.first_vid === null) return null
  return { to: `/v/${access.first_vid}.html`, label: access.mode === 'full' ? '开始学习' : '试看' }
}

/**
 * The bottom bar, once GET /api/course/access answered: a bought course says 已购 with "开始学习" / "继续学习"; a
 * course VIP opens says so; otherwise "试看" when some lessons can be tried, and the ways to get it: "立即购买 ¥xx",
 * and for a VIP-free course both "单独购买 ¥xx" and "开通 VIP 免费学".
 */
function ActionBar({ course }: { course: Course }) {
  const access = useCourseAccess(course.id)
  const learn = access ? learnLink(course, access) : null
  const full = access?.mode === 'full'
  const buy = `/course/coursePurchase?course_id=${course.id}`
  return (
    <div className="zx-bottomBar">
      <div className="zx-textColumn">
        {access?.via_vip ? (
          <span className={parts.vipState}>VIP 会员免费学</span>
        ) : (
          <CoursePrice course={course} owned={access?.owned ?? false} />
        )}
        {course.points_price !== null && !full && !course.is_free ? (
          <Link to={`/course/creditPay/${course.id}`} className={parts.pointsLink}>
            或 {course.points_price} 积分兑换
          </Link>
        ) : null}
      </div>
      {learn && !full ? (
        <Link to={learn.to} className={parts.actionTrial}>
          {learn.label}
        </Link>
      ) : null}
      {learn && full ? (
        <Link to={learn.to} className={`${parts.actionButton} ${parts.actionLearn}`}>
          {learn.label}
        </Link>
      ) : full || (course.is_free && !access) ? (
        <button type="button" className={parts.actionButton} disabled>
          {course.is_free ? '免费课程' : '已购'}
        </button>
      ) : course.vip_free && course.price_fen > 0 ? (
        <>
          <Link to={buy} className={`${parts.actionButton} ${parts.actionBuyAlone}`}>
            {`单独购买 ¥${formatYuan(course.price_fen)}`}
          </Link>
          <Link to="/vipBuy" className={`${parts.actionButton} ${parts.actionLearn}`}>
            VIP 免费学
          </Link>
        </>
      ) : course.vip_free ? (
        <Link to="/vipBuy" className={`${parts.actionButton} ${parts.actionLearn}`}>
          开通 VIP 免费学
        </Link>
      ) : course.price_fen > 0 ? (
        <Link to={buy} className={`${parts.actionButton} ${parts.actionLearn}`}>
          {`立即购买 ¥${formatYuan(course.price_fen)}`}
        </Link>
      ) : (
        <button type="button" className={parts.actionButton} disabled>
          暂不可购买
        </button>
      )}
    </div>
  )
}

/** Course detail: cover, price, intro, the system course's parts, chapters and videos, and the teacher. */
export default function CourseDetail() {
  const { course, bundles } = useLoaderData<typeof loader>()
  useWechatShare({
    title: course.title,
    desc: course.subtitle || course.intro.split('\n')[0] || '',
    imgUrl: course.cover,
  })
  const trialCount = course.chapters.reduce(
    (n, c) => n + c.videos.filter((v) => v.is_free || v.free_seconds > 0).length,
    0,
  )
  return (
    <main className={styles.page}>
      <NavBar title="课程详情" right={<FavouriteButton courseId={course.id} compact />} />
      <CourseCover course={course} />

      <section className={styles.info}>
        <h1 className={styles.title}>{course.title}</h1>
        {course.subtitle ? <p className={styles.subtitle}>{course.subtitle}</p> : null}
        <p className={styles.priceRow}>
          <CoursePrice course={course} large />
          <span className={styles.students}>{`${formatCount(course.student_count)}人学过`}</span>
        </p>
        <ul className={styles.tags} aria-label="课程标签">
          <li className={styles.typeTag}>{COURSE_TYPE_LABEL[course.type]}</li>
          <li>{LEVEL_LABEL[course.level] ?? course.level}</li>
          <li>
            <BareLink to={`/list/${course.category_id}`} className={styles.categoryLink} prefetch={false}>
              {course.category_name}
            </BareLink>
          </li>
          {course.video_count > 0 ? <li>{`${course.video_count} 节`}</li> : null}
          {trialCount > 0 && !course.is_free ? <li className={styles.trialTag}>{`${trialCount} 节可试看`}</li> : null}
        </ul>
        <LiveLine course={course} />
      </section>
      <AccessReasons courseId={course.id} />

      {bundles.slice(0, 2).map((b) => (
        <BareLink key={b.id} to={`/foryou/${b.id}`} className={parts.bundleOffer}>
          <span className={parts.bundleTag}>套餐</span>
          <span className="zx-textColumn">
            <span className={parts.bundleTitle}>{b.title}</span>
            <span className="zx-meta">
              含 {b.course_count} 门课，套餐价 ¥{formatYuan(b.price_fen)}
              {b.list_price_fen > b.price_fen ? `，省 ¥${formatYuan(b.list_price_fen - b.price_fen)}` : ''}
            </span>
          </span>
          <span className={parts.bundleGo} aria-hidden="true">
            ›
          </span>
        </BareLink>
      ))}

      <nav className={styles.anchors} aria-label="页面目录">
        <a href="#intro" onClick={() => sendStat('courseDetailTag', { position: 'intro' })}>
          简介
        </a>
        {course.sub_courses.length > 0 ? (
          <a href="#parts" onClick={() => sendStat('courseDetailTag', { position: 'parts' })}>
            包含课程
          </a>
        ) : null}
        <a href="#chapters" onClick={() => sendStat('courseDetailTag', { position: 'chapters' })}>
          目录
        </a>
        {course.teacher ? (
          <a href="#teacher" onClick={() => sendStat('courseDetailTag', { position: 'teacher' })}>
            讲师
          </a>
        ) : null}
        <a href="#comments" onClick={() => sendStat('courseDetailTag', { position: 'comments' })}>
          评论
        </a>
      </nav>

      <section id="intro" className={styles.block} aria-labelledby="intro-title">
        <h2 id="intro-title" className={styles.blockTitle}>
          课程简介
        </h2>
        <div className={styles.intro}>
          {course.intro
            .split(/\n{2,}/)
            .filter(Boolean)
            .map((p, i) => (
              <Paragraph key={i} text={p} />
            ))}
        </div>
      </section>

      {course.sub_courses.length > 0 ? (
        <section id="parts" className={styles.block} aria-labelledby="parts-title">
          <h2 id="parts-title" className={styles.blockTitle}>
            包含课程<span className="zx-titleNote">共 {course.sub_courses.length} 门，建议按顺序学习</span>
          </h2>
          <ol className={styles.parts}>
            {course.sub_courses.map((c, i) => (
              <li key={c.id} className={styles.part}>
                <span className={styles.partNo}>{i + 1}</span>
                <CourseRow course={c} compact />
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      <section id="chapters" className={styles.block} aria-labelledby="chapters-title">
        <h2 id="chapters-title" className={styles.blockTitle}>
          课程目录
          {course.video_count > 0 ? (
            <span className="zx-titleNote">
              {`共 ${course.video_count} 节`}
              {course.duration_seconds > 0 ? ` · ${formatTotalDuration(course.duration_seconds)}` : null}
            </span>
          ) : null}
        </h2>
        <Chapters course={course} />
      </section>

      {course.teacher ? <TeacherSection teacher={course.teacher} /> : null}

      <CourseComments courseId={course.id} />

      <p className={styles.end}>— 已经到底了 —</p>

      <ActionBar course={course} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="课程详情" />
}
