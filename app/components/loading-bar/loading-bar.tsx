import { useEffect, useState } from 'react'
import { useNavigation } from 'react-router'
import styles from './loading-bar.module.css'

/** Navigations quicker than this never show the bar (spec 9: throttle 200 ms). */
const LOADING_BAR_DELAY_MS = 200

/**
 * A thin bar at the top of the screen while React Router loads the next page. It creeps towards the end over
 * 5 s (spec 9) and disappears when the page arrives.
 */
export function LoadingBar() {
  const busy = useNavigation().state !== 'idle'
  const [late, setLate] = useState(false)

  useEffect(() => {
    if (!busy) return
    const timer = setTimeout(() => setLate(true), LOADING_BAR_DELAY_MS)
    return () => {
      clearTimeout(timer)
      setLate(false)
    }
  }, [busy])

  const visible = busy && late
  return (
    <div
      className={visible ? `${styles.bar} ${styles.loading}` : styles.bar}
      role="progressbar"
      aria-hidden={!visible}
      aria-label="页面加载中"
    />
  )
}
