import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import type { z } from 'zod'
import type * as comments from '#server/modules/comments/comments.schema.ts'
import { formatCommentTime } from '#app/components/comments/format-time.ts'
import { courseHref } from '#app/components/course-card/course-format.ts'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, ListEnd, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import styles from './community.module.css'

export function meta() {
  return [{ title: '我的评论 - 自学' }, { name: 'robots', content: 'noindex' }]
}

type MemberComment = z.infer<typeof comments.MemberComment>
type Page = z.infer<typeof comments.MemberCommentPage>

type State =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; list: MemberComment[]; cursor: string | null }

function MyComment({ c }: { c: MemberComment }) {
  return (
    <li className={styles.myComment} data-testid="my-comment">
      <Link to={`/mine/commentDetail/${c.id}`} className={styles.myCommentLink}>
        <p className={styles.myCommentWhere}>
          {c.parent_id !== null ? '回复 · ' : ''}
          {c.video ? `${c.course.title} · ${c.video.title}` : c.course.title}
        </p>
        <p className={styles.myCommentText}>{c.content}</p>
        <p className={styles.myCommentMeta}>
          <time dateTime={c.created_at}>{formatCommentTime(c.created_at)}</time>
          {c.is_private ? <span>私密</span> : null}
          {c.status === 'hidden' ? <span className={styles.warn}>已被隐藏</span> : null}
          {c.type === 'pinned' ? <span>置顶</span> : c.type === 'featured' ? <span>精选</span> : null}
          <span>{c.like_count} 赞</span>
          {c.parent_id === null ? <span>{c.reply_count} 回复</span> : null}
        </p>
      </Link>
      <Link to={c.video ? `/v/${c.video.id}.html` : courseHref(c.course.id)} className={styles.inlineLink}>
        {c.video ? '去看视频' : '去看课程'} ›
      </Link>
    </li>
  )
}

/** /mine/comment/{id}: the member's comments and replies, newest first ({id} from old links is ignored). */
export default function MyComments() {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [state, setState] = useState<State>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle')

  useEffect(() => {
    if (!token) return
    const controller = new AbortController()
    api
      .get<Page>('/memberComments', undefined, { quiet: true, signal: controller.signal })
      .then((p) => setState({ status: 'ready', list: p.list, cursor: p.next_cursor }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(e, '加载失败') })
      })
    return () => controller.abort()
  }, [token, attempt])

  async function loadMore() {
    if (state.status !== 'ready' || !state.cursor || more === 'loading') return
    setMore('loading')
    try {
      const p = await api.get<Page>('/memberComments', { cursor: state.cursor }, { quiet: true })
      setState((s) =>
        s.status === 'ready' ? { status: 'ready', list: [...s.list, ...p.list], cursor: p.next_cursor } : s,
      )
      setMore('idle')
    } catch {
      setMore('error')
    }
  }

  let body
  if (!hydrated) body = <Loading />
  else if (!token) body = <LoginRequired reason="登录后查看你发表过的评论" />
  else if (state.status === 'loading') body = <Loading />
  else if (state.status === 'error')
    body = <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
  else if (state.list.length === 0) {
    body = (
      <div className={styles.empty}>
        <Empty message="你还没有发表过评论" />
        <Link to="/ke" className={styles.linkButton}>
          去看看课程
        </Link>
      </div>
    )
  } else {
    body = (
      <>
        <ul className="zx-dividedList">
          {state.list.map((c) => (
            <MyComment key={c.id} c={c} />
          ))}
        </ul>
        <ListEnd hasMore={state.cursor !== null} state={more} onMore={() => void loadMore()} />
      </>
    )
  }

  return (
    <main className={styles.page}>
      <NavBar title="我的评论" backTo="/mine" />
      <div className={styles.results}>{body}</div>
    </main>
  )
}
