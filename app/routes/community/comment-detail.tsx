import { useCallback, useEffect, useState } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import type { z } from 'zod'
import type { CommentThread } from '#server/modules/comments/comments.schema.ts'
import { CommentComposer, type ComposeTarget } from '#app/components/comments/comment-composer.tsx'
import { CommentItem, type Comment } from '#app/components/comments/comment-item.tsx'
import { useCommentLike } from '#app/components/comments/use-comment-like.ts'
import { courseHref } from '#app/components/course-card/course-format.ts'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, LoadError, Loading, moreLabel } from '#app/components/page-state/page-state.tsx'
import { api, ApiError, errorMessage } from '#app/lib/api.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import commentStyles from '#app/components/comments/comments.module.css'
import pageState from '#app/components/page-state/page-state.module.css'
import styles from './community.module.css'

export function meta() {
  return [{ title: '评论详情 - 自学' }, { name: 'robots', content: 'noindex' }]
}

/** A positive id from the path or the query ("12", "12.html"); null otherwise. */
function parseId(value: string | null | undefined): number | null {
  const m = /^([1-9]\d{0,9})(?:\.html)?$/.exec(value ?? '')
  const n = m ? Number(m[1]) : NaN
  return n <= 2_147_483_647 ? n : null
}

type Thread = z.infer<typeof CommentThread>

type State =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'error'; message: string }
  | { status: 'ready'; thread: Thread }

/**
 * A comment thread: /course/commentDetail?id= (from a course page) and /mine/commentDetail/{id} (from my
 * comments). The comment asked for is marked; replies come oldest first; members answer the thread or a reply.
 * Fetched in the browser with the member's token, so private and hidden comments show to those allowed.
 */
export default function CommentDetail() {
  const params = useParams()
  const [search] = useSearchParams()
  const id = parseId(params.id ?? search.get('id'))
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [state, setState] = useState<State>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle')
  const [replyTo, setReplyTo] = useState<Comment | null>(null)
  const fromMine = params.id !== undefined

  useEffect(() => {
    if (id === null || !hydrated) return
    const controller = new AbortController()
    api
      .get<Thread>('/commentDetail', { id }, { quiet: true, signal: controller.signal })
      .then((thread) => setState({ status: 'ready', thread }))
      .catch((e: unknown) => {
        if (controller.signal.aborted) return
        if (e instanceof ApiError && e.code === 404) setState({ status: 'missing' })
        else setState({ status: 'error', message: errorMessage(e, '评论加载失败') })
      })
    return () => controller.abort()
  }, [id, hydrated, token, attempt])

  const update = useCallback((cid: number, change: Partial<Comment>) => {
    setState((s) => {
      if (s.status !== 'ready') return s
      const t = s.thread
      return {
        status: 'ready',
        thread: {
          ...t,
          comment: t.comment.id === cid ? { ...t.comment, ...change } : t.comment,
          replies: t.replies.map((r) => (r.id === cid ? { ...r, ...change } : r)),
        },
      }
    })
  }, [])
  const likes = useCommentLike(update)

  async function loadMore() {
    if (state.status !== 'ready' || !state.thread.next_cursor || more === 'loading') return
    setMore('loading')
    try {
      const page = await api.get<Thread>(
        '/commentDetail',
        { id: state.thread.comment.id, cursor: state.thread.next_cursor },
        { quiet: true },
      )
      setState((s) =>
        s.status === 'ready'
          ? {
              status: 'ready',
              thread: { ...s.thread, replies: [...s.thread.replies, ...page.replies], next_cursor: page.next_cursor },
            }
          : s,
      )
      setMore('idle')
    } catch {
      setMore('error')
    }
  }

  function posted(reply: Comment) {
    setReplyTo(null)
    setState((s) => {
      if (s.status !== 'ready') return s
      const t = s.thread
      // A new reply goes last when every reply is already shown; otherwise "load more" will bring it.
      const replies = t.next_cursor ? t.replies : [...t.replies, reply]
      return {
        status: 'ready',
        thread: { ...t, replies, comment: { ...t.comment, reply_count: t.comment.reply_count + 1 } },
      }
    })
  }

  const title = '评论详情'
  const backTo = fromMine ? '/mine/comment' : '/'
  if (id === null) {
    return (
      <main className={styles.page}>
        <NavBar title={title} backTo={backTo} />
        <Empty message="没有找到这条评论" />
      </main>
    )
  }
  if (!hydrated || state.status === 'loading') {
    return (
      <main className={styles.page}>
        <NavBar title={title} backTo={backTo} />
        <Loading />
      </main>
    )
  }
  if (state.status === 'missing' || state.status === 'error') {
    return (
      <main className={styles.page}>
        <NavBar title={title} backTo={backTo} />
        {state.status === 'missing' ? (
          <Empty message="评论不存在，或已被删除" />
        ) : (
          <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
        )}
      </main>
    )
  }

  const { thread } = state
  const root = thread.comment
  const target: ComposeTarget = { reply_to: replyTo?.id ?? root.id }
  return (
    <main className={styles.page}>
      <NavBar title={title} backTo={fromMine ? '/mine/comment' : courseHref(root.course_id)} />
      <div className={styles.results}>
        <CommentItem comment={root} likes={likes} />
        <p className={styles.threadLinks}>
          <Link to={root.vid ? `/v/${root.vid}.html` : courseHref(root.course_id)} className={styles.inlineLink}>
            {root.vid ? '去看这个视频' : '去看这门课程'} ›
          </Link>
        </p>
        <h2 className={styles.blockTitle}>全部回复 {root.reply_count > 0 ? `(${root.reply_count})` : ''}</h2>
        {thread.replies.length === 0 ? (
          <p className={styles.muted}>还没有回复</p>
        ) : (
          <div className={commentStyles.list}>
            {thread.replies.map((r) => (
              <CommentItem
                key={r.id}
                comment={r}
                likes={likes}
                onReply={setReplyTo}
                highlight={r.id === thread.focus_id}
              />
            ))}
          </div>
        )}
        {thread.next_cursor ? (
          <button
            type="button"
            className={pageState.more}
            onClick={() => void loadMore()}
            disabled={more === 'loading'}
          >
            {moreLabel(more, '更多回复')}
          </button>
        ) : null}
        <div className={styles.replyBox}>
          <CommentComposer
            key={target.reply_to}
            target={target}
            placeholder={replyTo ? `回复 @${replyTo.author.nickname}` : `回复 @${root.author.nickname}`}
            onPosted={posted}
            onCancel={replyTo ? () => setReplyTo(null) : undefined}
            autoFocus={replyTo !== null}
          />
        </div>
      </div>
    </main>
  )
}
