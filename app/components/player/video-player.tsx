import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react'
import { listen } from '#app/lib/listen.ts'
import { browserEnv, chooseEngine, type Engine } from './engine.ts'
import styles from './video-player.module.css'

export interface VideoPlayerProps {
  videoRef: RefObject<HTMLVideoElement | null>
  /** The signed master playlist; null while there is nothing to play yet. */
  src: string | null
  poster: string | null
  /** Where to start (resume), in seconds. */
  startAt: number
  /** The preview ends here: playing stops at this second. Null: the whole video. */
  untilSecond: number | null
  rate: number
  /** Playing reached the end of the preview. */
  onPreviewEnd: () => void
  /** The whole video was played to its end. */
  onEnded: () => void
  /** The stream cannot play (expired URL, network, no support). */
  onFatal: (message: string) => void
  /** The browser's own controls; hidden while a prompt covers the video. */
  controls?: boolean
  /** Overlays drawn over the video (watermark, popups, prompts). */
  children?: ReactNode
}

type Phase = 'idle' | 'loading' | 'ready'

let hlsModule: Promise<typeof import('hls.js/light')> | null = null
/** hls.js (~110 KB gzip): fetched the first time a video starts in a browser that plays with it, never before. */
const loadHls = () => (hlsModule ??= import('hls.js/light'))

interface WeixinBridge {
  invoke(name: string, args: object, callback: () => void): void
}

/** WeChat lets a video start by itself only from its JS bridge's callback. */
function playInWechat(video: HTMLVideoElement) {
  const play = () => void video.play().catch(() => {})
  const bridge = (window as typeof window & { WeixinJSBridge?: WeixinBridge }).WeixinJSBridge
  if (bridge) bridge.invoke('getNetworkType', {}, play)
  else document.addEventListener('WeixinJSBridgeReady', play, { once: true })
}

/**
 * The <video> element with the attributes phones need (inline playback in Safari and WeChat's X5/XWeb browsers,
 * AirPlay), fed by the engine this browser plays HLS best with (engine.ts): native HLS, or hls.js — loaded by
 * dynamic import when the video first starts, so only a page where someone presses play ever downloads it. It starts at `startAt` and never plays past `untilSecond`.
 */
export function VideoPlayer({
  videoRef,
  src,
  poster,
  startAt,
  untilSecond,
  rate,
  onPreviewEnd,
  onEnded,
  onFatal,
  controls = true,
  children,
}: VideoPlayerProps) {
  const [phase, setPhase] = useState<Phase>('idle')
  // With hls.js nothing is fetched until the member starts the video (a tap on the play button, or play() from
  // the page, which fires `play`): no 250 KB of script on a page that is only looked at.
  const [engine, setEngine] = useState<Engine | null>(null)
  const [started, setStarted] = useState(false)
  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    setEngine(chooseEngine(browserEnv(video)))
    const start = () => setStarted(true)
    video.addEventListener('play', start)
    return () => video.removeEventListener('play', start)
  }, [videoRef])
  const waiting = engine === 'hlsjs' && !started
  // The latest callbacks, so that changing one does not tear the stream down.
  const callbacks = useRef({ onPreviewEnd, onEnded, onFatal })
  useEffect(() => {
    callbacks.current = { onPreviewEnd, onEnded, onFatal }
  })

  // Attaches the source: once it is there and, with hls.js, once the video was started. It depends on `waiting`, not
  // on `started`: pressing play on a native source must not run it again, since reloading the source interrupts the
  // play() that pressing started ("interrupted by a new load request"), and a phone would not start the new source
  // without another tap.
  useEffect(() => {
    const video = videoRef.current
    if (!video || !src || !engine || waiting) return
    let destroyed = false
    let hls: { destroy(): void } | null = null
    setPhase('loading')
    const tryPlay = () => {
      video.play().catch(() => {
        // Autoplay refused (no tap yet): the controls' play button starts it.
        if (!destroyed) setPhase('ready')
      })
      if (/MicroMessenger/i.test(navigator.userAgent)) playInWechat(video)
    }

    if (engine === 'native') {
      const seek = () => {
        if (startAt > 0) video.currentTime = startAt
      }
      const onError = () => callbacks.current.onFatal('视频加载失败，请检查网络后重试')
      video.addEventListener('loadedmetadata', seek, { once: true })
      video.addEventListener('error', onError)
      video.src = src
      tryPlay()
      return () => {
        destroyed = true
        video.removeEventListener('loadedmetadata', seek)
        video.removeEventListener('error', onError)
        video.removeAttribute('src')
        video.load()
      }
    }

    if (engine === 'none') {
      callbacks.current.onFatal('当前浏览器无法播放视频，请用微信或手机自带浏览器打开')
      return
    }

    loadHls()
      .then(({ default: Hls }) => {
        if (destroyed) return
        if (!Hls.isSupported()) {
          callbacks.current.onFatal('当前浏览器无法播放视频，请用微信或手机自带浏览器打开')
          return
        }
        const player = new Hls({ startPosition: startAt > 0 ? startAt : -1, maxBufferLength: 30, backBufferLength: 30 })
        hls = player
        let recovered = false
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (!data.fatal) return
          if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
            recovered = true
            player.recoverMediaError()
            return
          }
          callbacks.current.onFatal(
            data.type === Hls.ErrorTypes.NETWORK_ERROR ? '网络不给力，视频加载失败' : '视频播放出错，请重试',
          )
        })
        player.on(Hls.Events.MANIFEST_PARSED, tryPlay)
        player.loadSource(src)
        player.attachMedia(video)
      })
      .catch(() => {
        if (!destroyed) callbacks.current.onFatal('播放器加载失败，请刷新页面重试')
      })
    return () => {
      destroyed = true
      hls?.destroy()
    }
  }, [videoRef, src, startAt, engine, waiting])

  // Loading and playing states, and the end of the video.
  useEffect(() => {
    const video = videoRef.current
    if (!video) return
    const loading = () => setPhase('loading')
    const ready = () => setPhase('ready')
    const ended = () => {
      if (untilSecond === null) callbacks.current.onEnded()
    }
    const applyRate = () => {
      video.defaultPlaybackRate = rate
      video.playbackRate = rate
    }
    applyRate()
    return listen(video, {
      waiting: loading,
      playing: ready,
      canplay: ready,
      pause: ready,
      ended,
      loadedmetadata: applyRate,
    })
  }, [videoRef, rate, untilSecond])

  // The preview limit: the playlist already ends near it; this stops exactly there and refuses to go past.
  useEffect(() => {
    const video = videoRef.current
    if (!video || untilSecond === null) return
    const check = () => {
      if (video.currentTime < untilSecond - 0.1 && !video.ended) return
      if (!video.paused) video.pause()
      if (video.currentTime > untilSecond) video.currentTime = untilSecond
      callbacks.current.onPreviewEnd()
    }
    return listen(video, { timeupdate: check, seeking: check, play: check, ended: check })
  }, [videoRef, untilSecond])

  return (
    <div className={styles.stage}>
      <video
        ref={videoRef}
        className={styles.video}
        poster={poster ?? undefined}
        controls={controls && !waiting}
        playsInline
        preload="metadata"
        controlsList="nodownload"
        webkit-playsinline="true"
        x5-playsinline="true"
        x5-video-player-type="h5-page"
        x-webkit-airplay="allow"
        data-testid="player-video"
      />
      {waiting && src && controls ? (
        <button type="button" className={styles.start} aria-label="播放" onClick={() => setStarted(true)}>
          <span />
        </button>
      ) : null}
      {phase === 'loading' ? (
        <div className={styles.spinner} role="status" aria-label="视频加载中">
          <span />
        </div>
      ) : null}
      {children}
    </div>
  )
}
