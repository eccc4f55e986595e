/**
 * Adds listeners to one event target and returns the function that removes them all, the shape an effect's
 * clean-up wants: `return listen(video, { playing: onPlaying, pause: onPause })`.
 */
export function listen(target: EventTarget, handlers: Record<string, EventListener>): () => void {
  const entries = Object.entries(handlers)
  for (const [type, handler] of entries) target.addEventListener(type, handler)
  return () => {
    for (const [type, handler] of entries) target.removeEventListener(type, handler)
  }
}
