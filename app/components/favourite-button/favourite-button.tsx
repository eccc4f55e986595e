import { useEffect, useState } from 'react'
import { api } from '#app/lib/api.ts'
import { toast } from '#app/lib/toast.ts'
import { useAuth } from '#app/lib/use-auth.ts'
import { useMemberAction } from '#app/lib/use-member-action.ts'
import styles from './favourite-button.module.css'

type Target = { courseId: number; vid?: undefined } | { vid: number; courseId?: undefined }

/**
 * The favourite (heart) toggle of a course or a video. Anonymous visitors get the login popup; members see
 * their state once GET /course/fav (or /video/fav) answers, and a tap toggles it (POST, which answers the new
 * state). `compact` draws only the icon, for a title bar.
 */
export function FavouriteButton(props: Target & { compact?: boolean }) {
  const { token } = useAuth()
  const [known, setKnown] = useState<{ key: string; favourited: boolean } | null>(null)
  const { busy, run } = useMemberAction(token)
  const path = props.vid !== undefined ? '/video/fav' : '/course/fav'
  const params = props.vid !== undefined ? { vid: props.vid } : { course_id: props.courseId }
  const key = `${token ?? ''}:${path}:${props.vid ?? props.courseId}`

  useEffect(() => {
    if (!token) return
    const controller = new AbortController()
    api
      .get<{ favourited: boolean }>(path, params, { quiet: true, signal: controller.signal })
      .then((d) => setKnown({ key, favourited: d.favourited }))
      .catch(() => undefined)
    return () => controller.abort()
    // params is derived from the same values as key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const favourited = token !== null && known?.key === key && known.favourited

  const toggle = () =>
    run(async () => {
      const d = await api.post<{ favourited: boolean }>(path, params)
      setKnown({ key, favourited: d.favourited })
      toast(d.favourited ? '已收藏，可在“我的收藏”中查看' : '已取消收藏')
    })

  const label = favourited ? '已收藏' : '收藏'
  return (
    <button
      type="button"
      className={`${styles.button} ${props.compact ? styles.compact : ''} ${favourited ? styles.on : ''}`}
      aria-pressed={favourited}
      aria-label={favourited ? '取消收藏' : '收藏'}
      onClick={toggle}
      disabled={busy}
      data-testid="favourite-button"
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          d="M12 20.5s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.6a4.3 4.3 0 0 1 7.5 2.7c0 5.6-7.5 10.2-7.5 10.2Z"
          fill={favourited ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
      {props.compact ? null : <span>{label}</span>}
    </button>
  )
}
