import { useEffect, type RefObject } from 'react'
import { listen } from '#app/lib/listen.ts'
import { createProgressSaver, SAVE_EVERY_MS, type SaveTarget } from './progress.ts'

/**
 * Saves the position of the video while it plays: every 10 s, on pause and at the end through the API, and by
 * beacon when the page is hidden, closed or left. Nothing is saved before playback really started, so opening a
 * video and leaving at once never overwrites where the member stopped last time.
 */
export function useProgressSaver(
  videoRef: RefObject<HTMLVideoElement | null>,
  options: { vid: number; target: SaveTarget; token: string | null },
) {
  const { vid, target, token } = options
  useEffect(() => {
    const video = videoRef.current
    if (!video || !target) return
    const saver = createProgressSaver({ vid, target, token })
    let started = false
    let position = 0
    const length = () => (Number.isFinite(video.duration) ? video.duration : undefined)

    const onPlaying = () => {
      started = true
    }
    const onTime = () => {
      // A reset element (source removed) reports 0: keep the last real position.
      if (video.readyState > 0) position = video.currentTime
    }
    const onPause = () => {
      if (started) saver.save(video.currentTime, length())
    }
    const onEnded = () => {
      if (started) saver.save(length() ?? video.currentTime, length())
    }
    const onHidden = () => {
      if (started && document.visibilityState === 'hidden') saver.leave(position, length())
    }
    const onPageHide = () => {
      if (started) saver.leave(position, length())
    }
    const timer = setInterval(() => {
      if (started && !video.paused && !video.ended) saver.save(video.currentTime, length())
    }, SAVE_EVERY_MS)

    const unlisten = [
      listen(video, { playing: onPlaying, timeupdate: onTime, pause: onPause, ended: onEnded }),
      listen(document, { visibilitychange: onHidden }),
      listen(window, { pagehide: onPageHide }),
    ]
    return () => {
      clearInterval(timer)
      for (const stop of unlisten) stop()
      // Leaving inside the app (another lesson, back to the course): the same as the page going away.
      if (started) saver.leave(position, length())
    }
  }, [videoRef, vid, target, token])
}
