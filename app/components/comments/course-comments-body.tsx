import { useCallback, useEffect, useRef, useState } from 'react'
import type { z } from 'zod'
import type { CommentPage } from '#server/modules/comments/comments.schema.ts'
import { api, errorMessage } from '#app/lib/api.ts'
import { useAuth } from '#app/lib/use-auth.ts'
import { Empty, LoadError, Loading, moreLabel } from '#app/components/page-state/page-state.tsx'
import { CommentComposer } from './comment-composer.tsx'
import { CommentItem, type Comment } from './comment-item.tsx'
import { useCommentLike } from './use-comment-like.ts'
import pageState from '#app/components/page-state/page-state.module.css'
import styles from './comments.module.css'

type Page = z.infer<typeof CommentPage>

const PAGE = 10

/**
 * The course page's comments: composer, pinned then newest comments (or the order `listPath` answers) with likes
 * and reply counts, "load more".
 * Loaded in the browser with the member's token, so they see their own private and hidden comments too. The
 * first tap anywhere in the area is counted (POST /comment/course/click).
 */
export default function CourseCommentsBody({
  courseId,
  vid,
  listPath = '/comments',
}: {
  courseId: number
  vid?: number
  listPath?: string
}) {
  const { token } = useAuth()
  const [state, setState] = useState<
    | { status: 'loading' }
    | { status: 'error'; message: string }
    | { status: 'ready'; list: Comment[]; cursor: string | null }
  >({
    status: 'loading',
  })
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle')
  const [attempt, setAttempt] = useState(0)
  const clicked = useRef(false)
  const target = vid !== undefined ? { vid } : { course_id: courseId }

  useEffect(() => {
    const controller = new AbortController()
    api
      .get<Page>(listPath, { ...target, limit: PAGE }, { quiet: true, signal: controller.signal })
      .then((p) => setState({ status: 'ready', list: p.list, cursor: p.next_cursor }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(e, '评论加载失败') })
      })
    return () => controller.abort()
    // The target is derived from courseId and vid; the token changes what the member may see.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [courseId, vid, listPath, token, attempt])

  const update = useCallback((id: number, change: Partial<Comment>) => {
    setState((s) =>
      s.status === 'ready' ? { ...s, list: s.list.map((c) => (c.id === id ? { ...c, ...change } : c)) } : s,
    )
  }, [])
  const likes = useCommentLike(update)

  async function loadMore() {
    if (state.status !== 'ready' || !state.cursor || more === 'loading') return
    setMore('loading')
    try {
      const p = await api.get<Page>(listPath, { ...target, limit: PAGE, cursor: state.cursor }, { quiet: true })
      setState((s) =>
        s.status === 'ready'
          ? {
              status: 'ready',
              list: [...s.list, ...p.list.filter((c) => !s.list.some((x) => x.id === c.id))],
              cursor: p.next_cursor,
            }
          : s,
      )
      setMore('idle')
    } catch {
      setMore('error')
    }
  }

  function countClick() {
    if (clicked.current) return
    clicked.current = true
    void api.post(
      '/comment/course/click',
      { course_id: courseId, page: window.location.pathname },
      { quiet: true, emptyOnError: true },
    )
  }

  const posted = (c: Comment) =>
    setState((s) =>
      s.status === 'ready' ? { ...s, list: [c, ...s.list] } : { status: 'ready', list: [c], cursor: null },
    )

  return (
    <div onPointerDownCapture={countClick}>
      <CommentComposer target={target} onPosted={posted} placeholder="说说你对这门课的看法，或者提个问题…" />
      {state.status === 'loading' ? (
        <Loading label="评论加载中…" />
      ) : state.status === 'error' ? (
        <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
      ) : state.list.length === 0 ? (
        <Empty message="还没有评论，来说第一句吧" />
      ) : (
        <>
          <div className={styles.list}>
            {state.list.map((c) => (
              <CommentItem key={c.id} comment={c} likes={likes} threadHref={`/course/commentDetail?id=${c.id}`} />
            ))}
          </div>
          {state.cursor ? (
            <button
              type="button"
              className={`${pageState.more} ${styles.more}`}
              onClick={() => void loadMore()}
              disabled={more === 'loading'}
            >
              {moreLabel(more, '查看更多评论')}
            </button>
          ) : (
            <p className={styles.end}>没有更多评论了</p>
          )}
        </>
      )}
    </div>
  )
}
