import { useState } from 'react'
import { api } from '#app/lib/api.ts'
import { showLogin } from '#app/lib/events.ts'
import { authStore } from '#app/lib/auth-store.ts'
import type { Comment } from '#server/modules/comments/comments.schema.ts'

/**
 * Liking from a list: asks anonymous visitors to log in, sends the desired state (so a double tap cannot flip
 * it twice), and hands the server's answer to `apply` to update the list.
 */
export function useCommentLike(apply: (id: number, change: Pick<Comment, 'liked' | 'like_count'>) => void) {
  const [pending, setPending] = useState<ReadonlySet<number>>(new Set())

  async function like(comment: Comment) {
    if (!authStore.isLoggedIn()) {
      showLogin()
      return
    }
    if (pending.has(comment.id)) return
    setPending((s) => new Set(s).add(comment.id))
    try {
      const r = await api.post<{ liked: boolean; like_count: number }>('/comment/like', {
        id: comment.id,
        like: !comment.liked,
      })
      apply(comment.id, { liked: r.liked, like_count: r.like_count })
    } catch {
      // The request wrapper has shown why.
    } finally {
      setPending((s) => {
        const next = new Set(s)
        next.delete(comment.id)
        return next
      })
    }
  }

  return { like: (c: Comment) => void like(c), pending }
}

export type CommentLikes = ReturnType<typeof useCommentLike>
