import { Link } from 'react-router'
import type { z } from 'zod'
import type * as comments from '#server/modules/comments/comments.schema.ts'
import { formatCommentTime } from '#app/components/comments/format-time.ts'
import { courseHref } from '#app/components/course-card/course-format.ts'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, ListEnd, Loaded } from '#app/components/page-state/page-state.tsx'
import { usePagedList } from '#app/lib/use-paged-list.ts'
import styles from './community.module.css'

export function meta() {
  return [{ title: '我的评论 - 自学' }, { name: 'robots', content: 'noindex' }]
}

type MemberComment = z.infer<typeof comments.MemberComment>
type Page = z.infer<typeof comments.MemberCommentPage>

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
  const comments = usePagedList<MemberComment, string, Page>('/memberComments', { member: true, errorText: '加载失败' })
  return (
    <main className={styles.page}>
      <NavBar title="我的评论" backTo="/mine" />
      <div className={styles.results}>
        <MemberOnly reason="登录后查看你发表过的评论">
          <Loaded of={comments}>
            {(page) =>
              page.list.length === 0 ? (
                <div className={styles.empty}>
                  <Empty message="你还没有发表过评论" />
                  <Link to="/ke" className={styles.linkButton}>
                    去看看课程
                  </Link>
                </div>
              ) : (
                <>
                  <ul className="zx-dividedList">
                    {page.list.map((c) => (
                      <MyComment key={c.id} c={c} />
                    ))}
                  </ul>
                  <ListEnd hasMore={page.next_cursor !== null} state={comments.more} onMore={comments.loadMore} />
                </>
              )
            }
          </Loaded>
        </MemberOnly>
      </div>
    </main>
  )
}
