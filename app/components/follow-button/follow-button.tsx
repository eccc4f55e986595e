import { useEffect, useState } from 'react'
import type { TeacherWithFollow } from '#server/modules/follows/follows.schema.ts'
import { formatCount } from '#app/components/course-card/course-format.ts'
import { api } from '#app/lib/api.ts'
import { toast } from '#app/lib/toast.ts'
import { useAuth } from '#app/lib/use-auth.ts'
import { useMemberAction } from '#app/lib/use-member-action.ts'
import styles from './follow-button.module.css'

/**
 * Follow a teacher (POST /follow, a toggle). The page renders anonymously on the server; a signed-in member's
 * state comes from GET /teacher, which carries `followed` and `follower_count` for them.
 */
export function FollowButton({ teacherId, followers }: { teacherId: number; followers: number }) {
  const { token } = useAuth()
  const [known, setKnown] = useState<{ token: string; followed: boolean; count: number } | null>(null)
  const { busy, run } = useMemberAction(token)

  useEffect(() => {
    if (!token) return
    const controller = new AbortController()
    api
      .get<TeacherWithFollow>('/teacher', { id: teacherId }, { quiet: true, signal: controller.signal })
      .then((t) => setKnown({ token, followed: t.followed, count: t.follower_count }))
      .catch(() => undefined)
    return () => controller.abort()
  }, [token, teacherId])

  const mine = token !== null && known?.token === token ? known : null
  const followed = mine?.followed ?? false
  const count = mine?.count ?? followers

  const toggle = () =>
    run(async (token) => {
      const s = await api.post<{ followed: boolean; follower_count: number }>('/follow', { teacher_id: teacherId })
      setKnown({ token, followed: s.followed, count: s.follower_count })
      toast(s.followed ? '已关注' : '已取消关注')
    })

  return (
    <div className={styles.wrap}>
      <button
        type="button"
        className={followed ? `${styles.button} ${styles.followed}` : styles.button}
        aria-pressed={followed}
        onClick={toggle}
        disabled={busy}
        data-testid="follow-button"
      >
        {followed ? '已关注' : '+ 关注'}
      </button>
      <span className={styles.count} data-testid="follower-count">
        {formatCount(count)} 人关注
      </span>
    </div>
  )
}
