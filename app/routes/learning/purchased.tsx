import { useLoaderData } from 'react-router'
import { COURSE_TYPE_LABEL } from '#app/components/course-card/course-format.ts'
import { memberData } from '#app/lib/services-context.ts'
import { useServerData } from '#app/lib/use-api-get.ts'
import { usePagedList } from '#app/lib/use-paged-list.ts'
import { beijingDate } from '#shared/time.ts'
import { StudyList } from './study-list.tsx'
import { StudyItem } from './study-parts.tsx'
import { lastStudied } from './studied-at.ts'
import styles from './purchased.module.css'
import list from './study.module.css'
import type { z } from 'zod'
import type * as learning from '#server/modules/learning/learning.schema.ts'
import type { Route } from './+types/purchased'

export function meta() {
  return [{ title: '已购 - 自学' }]
}

/** The first page for the member of the session cookie, read on the server (null: asked in the browser). */
export function loader({ context }: Route.LoaderArgs) {
  return memberData(context, (s, memberId) => s.album(memberId))
}

type AlbumItem = z.infer<typeof learning.AlbumItem>

const SOURCE_LABEL: Record<AlbumItem['source'], string> = {
  admin: '赠送',
  purchase: '已购',
  vip: 'VIP',
  redeem: '兑换',
  exchange: '兑换',
  unlock: '解锁',
  tuition: '体系课',
  free: '免费',
}

/** "学完 1/12 节 · 2 节在学": lessons finished, and lessons started but not finished. */
function lessonsText(p: AlbumItem['progress']) {
  const studying = p.started_count - p.finished_count
  return `学完 ${p.finished_count}/${p.video_count} 节${studying > 0 ? ` · ${studying} 节在学` : ''}`
}

/** Where "continue" goes: the lesson watched last, or the course page to start. */
function continueHref(item: AlbumItem) {
  if (item.type === 'system') return `/course/systemCourse?id=${item.id}`
  if (item.type === 'live') return `/li/${item.id}.html`
  return item.progress.last_vid ? `/v/${item.progress.last_vid}.html` : `/course/${item.id}.html`
}

/**
 * The "purchased" tab (/ke1, GET /center/my_album): every course the member may watch — bought, granted, or a
 * free course they started — with their progress and a button to continue where they left off.
 */
export default function Purchased() {
  const initial = useServerData(useLoaderData<typeof loader>())
  const albums = usePagedList<AlbumItem>('/center/my_album', { member: true, query: { limit: 20 }, initial })
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>已购课程</h1>
      </header>
      <StudyList
        of={albums}
        login={{ reason: '登录后查看你购买和领取的课程', target: '/ke1' }}
        label="我的课程"
        empty={{
          message: '还没有课程。购买的课程和学过的免费课会出现在这里',
          links: [
            { to: '/ke', label: '浏览全部课程' },
            { to: '/ke2', label: '在其他平台买过课？用购买手机号查询' },
          ],
        }}
      >
        {(c) => (
          <StudyItem
            key={c.id}
            coverTo={`/course/${c.id}.html`}
            cover={c.cover}
            title={c.title}
            detail={
              <span className={list.tags}>
                <span className={list.tag}>{SOURCE_LABEL[c.source]}</span>
                {c.type !== 'series' ? <span className={list.tagMuted}>{COURSE_TYPE_LABEL[c.type]}</span> : null}
                {c.expires_at ? (
                  <span className={list.tagMuted}>有效期至 {beijingDate(new Date(c.expires_at))}</span>
                ) : null}
                {c.type !== 'live' && c.progress.video_count > 0 ? (
                  <span className={list.tagMuted} data-testid="album-lessons">
                    {lessonsText(c.progress)}
                  </span>
                ) : null}
              </span>
            }
            percent={c.progress.percent}
            progressText={`${c.progress.percent}%`}
            when={lastStudied(c.progress.last_studied_at)}
            actionTo={continueHref(c)}
            actionText={c.progress.last_studied_at ? '继续学习' : '开始学习'}
          />
        )}
      </StudyList>
    </main>
  )
}
