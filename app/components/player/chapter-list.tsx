import { Link } from 'react-router'
import { formatDuration, previewLabel } from '#app/components/course-card/course-format.ts'
import type { VideoPage } from '#server/modules/learning/learning.schema.ts'
import styles from './player-panels.module.css'

type ChapterData = VideoPage['chapters'][number]
type ChapterVideo = ChapterData['videos'][number]

function badge(v: ChapterVideo, courseFree: boolean, full: boolean) {
  if (courseFree || full) return null
  if (v.is_free) return <span className={styles.free}>免费</span>
  if (v.free_seconds > 0) return <span className={styles.free}>{previewLabel(v.free_seconds)}</span>
  return (
    <span className={styles.lock} aria-label="需购买">
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
        <rect x="3" y="7" width="10" height="7" rx="1.5" fill="currentColor" />
        <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      </svg>
    </span>
  )
}

/** The course's chapters and lessons: the current one marked, progress per lesson, a tap switches the video. */
export function ChapterList({
  chapters,
  current,
  courseFree,
  fullAccess,
}: {
  chapters: ChapterData[]
  current: number
  courseFree: boolean
  fullAccess: boolean
}) {
  let n = 0
  return (
    <ol className={styles.chapters} aria-label="课程目录">
      {chapters.map((chapter) => (
        <li key={chapter.id}>
          {chapters.length > 1 ? <h3 className={styles.chapterTitle}>{chapter.title}</h3> : null}
          <ol className={styles.lessons}>
            {chapter.videos.map((v) => {
              n++
              const isCurrent = v.id === current
              return (
                <li key={v.id}>
                  <Link
                    to={`/v/${v.id}.html`}
                    replace
                    className={isCurrent ? `${styles.lesson} ${styles.current}` : styles.lesson}
                    aria-current={isCurrent ? 'true' : undefined}
                  >
                    <span className={styles.lessonNo}>{isCurrent ? '▶' : n}</span>
                    <span className="zx-textColumn">
                      <span className={styles.lessonTitle}>{v.title}</span>
                      <span className={styles.lessonMeta}>
                        {formatDuration(v.duration)}
                        {v.progress?.finished ? <span className={styles.done}>已学完</span> : null}
                        {v.progress && !v.progress.finished && v.progress.position > 0 ? (
                          <span>学到 {v.progress.percent}%</span>
                        ) : null}
                      </span>
                    </span>
                    {badge(v, courseFree, fullAccess)}
                  </Link>
                </li>
              )
            })}
          </ol>
        </li>
      ))}
    </ol>
  )
}
