import { Link } from 'react-router'
import type { Comment } from '#server/modules/comments/comments.schema.ts'
import { formatCommentTime } from './format-time.ts'
import { reportComment } from './report-comment.ts'
import type { CommentLikes } from './use-comment-like.ts'
import styles from './comments.module.css'

export type { Comment }

function Avatar({ src, name }: { src: string | null; name: string }) {
  return src ? (
    <img className={styles.avatar} src={src} alt="" width={36} height={36} loading="lazy" />
  ) : (
    <span className={styles.avatar} aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  )
}

/**
 * One comment: author, time, badges, the text (React escapes it; line breaks kept by CSS), the like toggle and,
 * for a top-level comment, the way to its replies.
 */
export function CommentItem({
  comment,
  likes,
  threadHref,
  onReply,
  highlight = false,
}: {
  comment: Comment
  /** The list's liking (useCommentLike): the toggle waits while this comment's like is being sent. */
  likes: CommentLikes
  /** Where "N 条回复" leads (top-level comments in a list). */
  threadHref?: string
  /** Answer this comment here (the thread page). */
  onReply?: (comment: Comment) => void
  highlight?: boolean
}) {
  return (
    <article
      className={highlight ? `${styles.item} ${styles.focus}` : styles.item}
      data-testid="comment"
      data-comment-id={comment.id}
    >
      <Avatar src={comment.author.avatar} name={comment.author.nickname} />
      <div className={styles.body}>
        <header className={styles.head}>
          <span className={styles.name}>{comment.author.nickname}</span>
          {comment.type === 'pinned' ? <span className={styles.badge}>置顶</span> : null}
          {comment.type === 'featured' ? <span className={styles.badge}>精选</span> : null}
          {comment.is_private ? <span className={`${styles.badge} ${styles.badgeMuted}`}>私密</span> : null}
          {comment.status === 'hidden' ? (
            <span className={`${styles.badge} ${styles.badgeMuted}`}>已隐藏，仅自己可见</span>
          ) : null}
        </header>
        <p className={styles.content}>
          {comment.reply_to && comment.parent_id !== comment.reply_to.id ? (
            <span className={styles.replyTo}>回复 @{comment.reply_to.nickname}：</span>
          ) : null}
          {comment.content}
        </p>
        <footer className={styles.foot}>
          <time dateTime={comment.created_at} className={styles.time}>
            {formatCommentTime(comment.created_at)}
          </time>
          {threadHref && comment.parent_id === null ? (
            <Link to={threadHref} className={styles.action}>
              {comment.reply_count > 0 ? `${comment.reply_count} 条回复` : '回复'}
            </Link>
          ) : null}
          {onReply ? (
            <button type="button" className={styles.action} onClick={() => onReply(comment)}>
              回复
            </button>
          ) : null}
          {comment.mine ? null : (
            <button
              type="button"
              className={styles.action}
              onClick={() => void reportComment(comment.id)}
              data-testid="comment-report"
            >
              举报
            </button>
          )}
          <button
            type="button"
            className={comment.liked ? `${styles.like} ${styles.liked}` : styles.like}
            aria-pressed={comment.liked}
            aria-label={
              comment.liked ? `取消点赞，已有 ${comment.like_count} 个赞` : `点赞，已有 ${comment.like_count} 个赞`
            }
            onClick={() => likes.like(comment)}
            disabled={likes.pending.has(comment.id)}
            data-testid="comment-like"
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path
                d="M7 10v10H4V10h3Zm2 10h8.2a2 2 0 0 0 2-1.6l1.3-6.4a2 2 0 0 0-2-2.4H14l.8-3.8a1.6 1.6 0 0 0-3-1L9 10v10Z"
                fill={comment.liked ? 'currentColor' : 'none'}
                stroke="currentColor"
                strokeWidth="1.6"
                strokeLinejoin="round"
              />
            </svg>
            <span>{comment.like_count > 0 ? comment.like_count : '赞'}</span>
          </button>
        </footer>
      </div>
    </article>
  )
}
