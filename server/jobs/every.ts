/**
 * Runs `round` now and then every `intervalMs` in this process, never two rounds at once (a slow round makes the
 * next tick skip). A failed round is reported and the next tick tries again. `stop()` waits for a running round.
 */
export function every(intervalMs: number, round: () => Promise<void>, onError: (err: unknown) => void) {
  let running: Promise<void> | null = null
  let stopped = false
  const tick = () => {
    if (running || stopped) return
    running = round()
      .catch(onError)
      .finally(() => {
        running = null
      })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  tick()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
