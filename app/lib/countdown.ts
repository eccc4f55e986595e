import { useCallback, useEffect, useState } from 'react'

/**
 * The get-code button's countdown (spec 4): idle, then 60 s labelled with the seconds left, then idle again.
 * The state is just when it started, so the pure functions below are the whole rule and the hook only ticks.
 */
export const CODE_COUNTDOWN_SECONDS = 60

/** Whole seconds left (60 right after starting, 0 when idle again). */
export function secondsLeft(startedAt: number | null, now: number, total = CODE_COUNTDOWN_SECONDS): number {
  if (startedAt === null) return 0
  const elapsed = Math.floor((now - startedAt) / 1000)
  if (elapsed < 0) return total
  return Math.max(0, total - elapsed)
}

/** A code can be requested only while idle. */
export function canRequestCode(startedAt: number | null, now: number, total = CODE_COUNTDOWN_SECONDS): boolean {
  return secondsLeft(startedAt, now, total) === 0
}

/** The button label: "获取验证码" when idle, "59s" while counting. */
export function countdownLabel(left: number, idleLabel = '获取验证码'): string {
  return left > 0 ? `${left}s` : idleLabel
}

export function useCountdown(total = CODE_COUNTDOWN_SECONDS, now: () => number = Date.now) {
  const [startedAt, setStartedAt] = useState<number | null>(null)
  const [tick, setTick] = useState(() => now())
  const left = secondsLeft(startedAt, tick, total)

  useEffect(() => {
    if (startedAt === null) return
    const id = setInterval(() => {
      const t = now()
      setTick(t)
      if (secondsLeft(startedAt, t, total) === 0) setStartedAt(null)
    }, 250)
    return () => clearInterval(id)
  }, [startedAt, total, now])

  const start = useCallback(() => {
    const t = now()
    setTick(t)
    setStartedAt(t)
  }, [now])

  const reset = useCallback(() => setStartedAt(null), [])

  return { left, running: left > 0, canRequest: canRequestCode(startedAt, tick, total), start, reset }
}
