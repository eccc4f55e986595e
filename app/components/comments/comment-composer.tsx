import { useState, type FormEvent } from 'react'
import { api } from '#app/lib/api.ts'
import { showLogin } from '#app/lib/events.ts'
import { toast } from '#app/lib/toast.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import type { Comment } from './comment-item.tsx'
import styles from './comments.module.css'

const CONTENT_MAX = 500

/** What the comment is on: a course, a video, or an answer to a comment. */
export type ComposeTarget = { course_id: number } | { vid: number } | { reply_to: number }

/** Characters as the server counts them (code points, so an emoji is one). */
function length(text: string) {
  return [...text.trim()].length
}

/**
 * Writes a comment (POST /comment): plain text, 1–500 characters, optionally private. Anonymous visitors see a
 * login button in its place (the shell's login popup). The server's answer (the new comment) goes to `onPosted`.
 */
export function CommentComposer({
  target,
  placeholder = '写下你的想法…',
  onPosted,
  onCancel,
  autoFocus = false,
}: {
  target: ComposeTarget
  placeholder?: string
  onPosted: (comment: Comment) => void
  onCancel?: () => void
  autoFocus?: boolean
}) {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [text, setText] = useState('')
  const [isPrivate, setPrivate] = useState(false)
  const [sending, setSending] = useState(false)
  const n = length(text)

  if (!hydrated) return <div className={styles.composerPlaceholder} aria-hidden="true" />
  if (!token) {
    return (
      <button type="button" className={styles.loginToComment} onClick={() => showLogin()} data-testid="comment-login">
        登录后参与评论
      </button>
    )
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (sending) return
    if (n === 0) {
      toast('请输入评论内容')
      return
    }
    if (n > CONTENT_MAX) {
      toast(`评论不能超过 ${CONTENT_MAX} 个字`)
      return
    }
    setSending(true)
    try {
      const comment = await api.post<Comment>('/comment', { ...target, content: text, is_private: isPrivate })
      setText('')
      setPrivate(false)
      toast(comment.is_private ? '已发布，仅相关的人和老师可见' : '评论成功')
      onPosted(comment)
    } catch {
      // The request wrapper has shown why (too fast, too long…); the text stays so nothing is lost.
    } finally {
      setSending(false)
    }
  }

  return (
    <form className={styles.composer} onSubmit={(e) => void submit(e)} data-testid="comment-composer">
      <textarea
        className={styles.textarea}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={placeholder}
        aria-label="评论内容"
        rows={3}
        maxLength={CONTENT_MAX * 2}
        autoFocus={autoFocus}
      />
      <div className={styles.composerBar}>
        <label className={styles.private}>
          <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.target.checked)} />
          <span>私密</span>
        </label>
        <span
          className={n > CONTENT_MAX ? `${styles.counter} ${styles.counterOver}` : styles.counter}
          aria-live="polite"
        >
          {n}/{CONTENT_MAX}
        </span>
        {onCancel ? (
          <button type="button" className={styles.cancel} onClick={onCancel}>
            取消
          </button>
        ) : null}
        <button type="submit" className={styles.send} disabled={sending || n === 0}>
          {sending ? '发布中…' : '发布'}
        </button>
      </div>
    </form>
  )
}
