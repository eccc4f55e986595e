import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Loading } from '#app/components/page-state/page-state.tsx'
import styles from './comments.module.css'

// The list, the composer and their code load only when the section comes near the screen: most visitors of a
// course page never scroll this far, and the page's first-load JS budget is tight.
const CommentsBody = lazy(() => import('./course-comments-body.tsx'))

/**
 * The comments section of a course page (or of one video with `vid`). `listPath` reads the list from another
 * endpoint with the same page shape (the Kuaishou landing's GET /ksxd/course/comments, newest first).
 */
export function CourseComments({ courseId, vid, listPath }: { courseId: number; vid?: number; listPath?: string }) {
  const ref = useRef<HTMLElement>(null)
  const [near, setNear] = useState(false)

  useEffect(() => {
    const el = ref.current
    if (!el || near) return
    if (typeof IntersectionObserver === 'undefined') {
      // Very old browsers: just load.
      queueMicrotask(() => setNear(true))
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true)
      },
      { rootMargin: '600px 0px' },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [near])

  return (
    <section
      id="comments"
      ref={ref}
      className={styles.section}
      aria-labelledby="comments-title"
      data-testid="course-comments"
    >
      <h2 id="comments-title" className={styles.sectionTitle}>
        学员评论
      </h2>
      {near ? (
        <Suspense fallback={<Loading label="评论加载中…" />}>
          <CommentsBody courseId={courseId} vid={vid} listPath={listPath} />
        </Suspense>
      ) : (
        <Loading label="评论加载中…" />
      )}
    </section>
  )
}
