import { useCallback, useEffect, useRef, useState } from 'react'
import { Link, redirect, useLoaderData, useNavigate } from 'react-router'
import type { Route } from './+types/player'
import { courseHref, formatDuration } from '#app/components/course-card/course-format.ts'
import { isAppNotFound, notFound, orNotFound, parseId } from '#app/components/course-data/catalogue-loader.server.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Tabs } from '#app/components/choices/choices.tsx'
import { Loading } from '#app/components/page-state/page-state.tsx'
import { AccessPrompt, purchaseHref, StageMessage } from '#app/components/player/access-prompt.tsx'
import { ChapterList } from '#app/components/player/chapter-list.tsx'
import { NotesPanel } from '#app/components/player/notes-panel.tsx'
import { PlayerPopupCard, type PlayerPopupData } from '#app/components/player/player-popup.tsx'
import { localProgress, saveTarget } from '#app/components/player/progress.ts'
import { useProgressSaver } from '#app/components/player/use-progress-saver.ts'
import { VideoPlayer } from '#app/components/player/video-player.tsx'
import { Watermark } from '#app/components/player/watermark.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { local } from '#app/lib/browser-storage.ts'
import { services } from '#app/lib/services-context.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import type { VideoPage } from '#server/modules/learning/learning.schema.ts'
import styles from './player.module.css'
import { useWechatShare } from '#app/lib/wechat-share.ts'

/**
 * /v/50001.html and /v/50001: the server renders what anyone may see (the anonymous view, with a signed URL for
 * free lessons and previews); a signed-in member's browser then asks GET /api/video for their own access,
 * progress and URL, because the token lives in localStorage.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { search } = new URL(request.url)
  // /v alone: the member's courses, to continue one.
  if (params.id === undefined) throw redirect(`/ke1${search}`)
  const vid = parseId(params.id)
  if (vid === null) notFound('视频不存在')
  const svc = services(context)
  try {
    return { page: await svc.learning.videoPage(null, vid) }
  } catch (error) {
    // Old links that carry a course id where a video id belongs lead to that course.
    if (isAppNotFound(error) && (await svc.catalogue.courseDetail(vid).catch(() => null)))
      throw redirect(`/course/${vid}.html${search}`)
    return orNotFound(() => Promise.reject(error as Error))
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: '视频不存在 - 自学' }]
  const { video, course } = loaderData.page
  return [
    { title: `${video.title} - ${course.title} - 自学` },
    { name: 'description', content: `${course.title}：${video.title}` },
    { property: 'og:image', content: course.cover },
  ]
}

const SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const
const RATE_KEY = 'zx_play_rate'
const NEXT_COUNTDOWN = 5

type Panel = 'chapters' | 'notes'
const PANELS: { key: Panel; label: string }[] = [
  { key: 'chapters', label: '目录' },
  { key: 'notes', label: '笔记' },
]

function storedRate(): number {
  const n = Number(local.getItem(RATE_KEY))
  return (SPEEDS as readonly number[]).includes(n) ? n : 1
}

/** A signed URL that ends within a minute is not worth starting with. */
function expired(page: VideoPage) {
  return page.play !== null && page.play.expires_at * 1000 < Date.now() + 60_000
}

type Loaded = { key: string; page: VideoPage } | { key: string; error: string }

export default function VideoPlayerRoute() {
  const { page: publicPage } = useLoaderData<typeof loader>()
  useWechatShare({
    title: publicPage.video.title,
    desc: `${publicPage.course.title} · 自学`,
    imgUrl: publicPage.course.cover,
  })
  const vid = publicPage.video.id
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [attempt, setAttempt] = useState(0)
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const key = `${token ?? ''}:${vid}:${attempt}`
  const usePublic = hydrated && !token && attempt === 0 && !expired(publicPage)

  useEffect(() => {
    if (!hydrated || usePublic) return
    const controller = new AbortController()
    api
      .get<VideoPage>('/video', { vid }, { quiet: true, signal: controller.signal })
      .then((page) => setLoaded({ key, page }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ key, error: errorMessage(error, '视频加载失败') })
      })
    return () => controller.abort()
  }, [hydrated, usePublic, vid, key])

  const mine = loaded?.key === key ? loaded : null
  const page = usePublic ? publicPage : mine && 'page' in mine ? mine.page : null
  const error = mine && 'error' in mine ? mine.error : null
  const retry = useCallback(() => setAttempt((n) => n + 1), [])

  return (
    <main className={styles.page}>
      <NavBar title={publicPage.course.title} backTo={courseHref(publicPage.course.id)} />
      <Player
        key={`${vid}:${attempt}`}
        display={page ?? publicPage}
        page={page}
        error={error}
        signedIn={Boolean(token)}
        token={token}
        onReload={retry}
      />
    </main>
  )
}

interface PlayerProps {
  /** What to show around the video (public data until the member's arrives). */
  display: VideoPage
  /** The data playback starts from; null while it is loading. */
  page: VideoPage | null
  error: string | null
  signedIn: boolean
  token: string | null
  onReload: () => void
}

function Player({ display, page, error, signedIn, token, onReload }: PlayerProps) {
  const navigate = useNavigate()
  const videoRef = useRef<HTMLVideoElement | null>(null)
  const hydrated = useHydrated()
  const [chosenRate, setChosenRate] = useState<number | null>(null)
  const rate = chosenRate ?? (hydrated ? storedRate() : 1)
  const [previewEnded, setPreviewEnded] = useState(false)
  const [fatal, setFatal] = useState<string | null>(null)
  const [nextIn, setNextIn] = useState<number | null>(null)
  const [tab, setTab] = useState<Panel>('chapters')
  const [popups, setPopups] = useState<PlayerPopupData[]>([])
  const [popup, setPopup] = useState<PlayerPopupData | null>(null)
  const shownPopups = useRef(new Set<number>())
  const vid = display.video.id
  const access = page?.access ?? null
  const until = access?.mode === 'preview' ? access.until_second : null

  // Where to start, fixed once per page data: the server's position for members (any device), this browser's
  // for anonymous visitors.
  const [start, setStart] = useState<{ page: VideoPage; at: number } | null>(null)
  if (page && start?.page !== page) {
    let at = signedIn ? page.resume_position : localProgress.get(vid)
    const length = page.video.duration
    if (length > 0 && at >= length - 3) at = 0
    if (until !== null) at = Math.min(at, until)
    setStart({ page, at })
  }
  const startAt = start?.page === page ? start.at : null

  useProgressSaver(videoRef, { vid, target: page ? saveTarget(page.access.mode, signedIn) : null, token })

  // Player popups of this video, shown once each when playing passes their second (not when resuming past it).
  useEffect(() => {
    const controller = new AbortController()
    api
      .get<{ list: PlayerPopupData[] }>('/popup/player/v2', { vid }, { quiet: true, signal: controller.signal })
      .then((data) => setPopups(data.list))
      .catch(() => {})
    return () => controller.abort()
  }, [vid])
  useEffect(() => {
    const video = videoRef.current
    if (!video || popups.length === 0) return
    const onTime = () => {
      const due = popups.find(
        (p) =>
          !shownPopups.current.has(p.id) && video.currentTime >= p.at_second && video.currentTime < p.at_second + 3,
      )
      if (!due) return
      shownPopups.current.add(due.id)
      setPopup(due)
    }
    video.addEventListener('timeupdate', onTime)
    return () => video.removeEventListener('timeupdate', onTime)
  }, [popups])

  function openPopup(p: PlayerPopupData) {
    void api.request('POST', '/popup/player/click', { id: p.id }, { quiet: true })
    setPopup(null)
    if (!p.link) return
    if (p.link.startsWith('/')) void navigate(p.link)
    else window.location.href = p.link
  }

  // The next lesson after this one ends, after a short countdown the member can cancel.
  useEffect(() => {
    if (nextIn === null || !page?.next_vid) return
    if (nextIn <= 0) {
      void navigate(`/v/${page.next_vid}.html`, { replace: true })
      return
    }
    const timer = setTimeout(() => setNextIn((n) => (n === null ? null : n - 1)), 1000)
    return () => clearTimeout(timer)
  }, [nextIn, page, navigate])

  const onEnded = useCallback(() => {
    if (page?.next_vid) setNextIn(NEXT_COUNTDOWN)
  }, [page])
  const onPreviewEnd = useCallback(() => setPreviewEnded(true), [])
  const onFatal = useCallback((message: string) => setFatal(message), [])

  function chooseRate(r: number) {
    setChosenRate(r)
    local.setItem(RATE_KEY, String(r))
  }

  function seek(second: number) {
    const video = videoRef.current
    if (!video) return
    video.currentTime = until !== null ? Math.min(second, until) : second
    void video.play().catch(() => {})
  }

  function replayPreview() {
    setPreviewEnded(false)
    seek(0)
  }

  const next = display.chapters.flatMap((c) => c.videos).find((v) => v.id === page?.next_vid)
  const src = page?.play && startAt !== null && !fatal ? page.play.master_url : null

  let overlay = null
  if (error) overlay = <StageMessage text={error} action="重试" onAction={onReload} />
  else if (fatal) overlay = <StageMessage text={fatal} action="重新加载" onAction={onReload} />
  else if (page?.play_status === 'processing')
    overlay = <StageMessage text="视频还在处理中，请稍后再来观看" action="刷新" onAction={onReload} />
  else if (page?.play_status === 'no_access')
    overlay = <AccessPrompt kind="locked" course={page.course} loginHint={page.access.login_required} />
  else if (page && previewEnded)
    overlay = (
      <AccessPrompt
        kind="preview-ended"
        course={page.course}
        loginHint={page.access.login_required}
        onReplay={replayPreview}
      />
    )

  return (
    <>
      <div className={styles.stickyStage}>
        <VideoPlayer
          videoRef={videoRef}
          src={src}
          // Public, like `display`: in the server's HTML (the page's largest paint), kept till the member's page.
          poster={display.play?.poster_url ?? null}
          startAt={startAt ?? 0}
          untilSecond={until}
          rate={rate}
          onPreviewEnd={onPreviewEnd}
          onEnded={onEnded}
          onFatal={onFatal}
          controls={!overlay}
        >
          {page?.watermark ? <Watermark text={page.watermark} /> : null}
          {popup && !overlay ? (
            <PlayerPopupCard popup={popup} onOpen={() => openPopup(popup)} onClose={() => setPopup(null)} />
          ) : null}
          {overlay}
          {nextIn !== null && next && !overlay ? (
            <div className={styles.nextCard} role="status">
              <span>
                {nextIn} 秒后播放下一节：{next.title}
              </span>
              <span className={styles.nextActions}>
                <button type="button" onClick={() => setNextIn(null)}>
                  取消
                </button>
                <button type="button" className={styles.nextNow} onClick={() => setNextIn(0)}>
                  立即播放
                </button>
              </span>
            </div>
          ) : null}
        </VideoPlayer>
      </div>

      <section className="zx-surfaceBlock">
        <h1 className={styles.title}>{display.video.title}</h1>
        <p className={styles.meta}>
          <Link to={courseHref(display.course.id)} className={styles.courseLink}>
            {display.course.title}
          </Link>
          {access?.mode === 'preview' && until !== null ? (
            <span className={styles.previewTag}>试看前 {formatDuration(until)}</span>
          ) : null}
        </p>
        <div className={styles.controls}>
          <div className={styles.speeds} role="group" aria-label="播放速度">
            {SPEEDS.map((s) => (
              <button
                key={s}
                type="button"
                aria-pressed={rate === s}
                className={rate === s ? `${styles.speed} ${styles.speedOn}` : styles.speed}
                onClick={() => chooseRate(s)}
              >
                {s}×
              </button>
            ))}
          </div>
          {display.next_vid ? (
            <Link to={`/v/${display.next_vid}.html`} replace className={styles.nextLink}>
              下一节 ›
            </Link>
          ) : null}
        </div>
      </section>

      {access && access.mode !== 'full' ? (
        <section className={styles.buyBar} aria-label="购买">
          <span className={styles.buyText}>
            {access.mode === 'preview' ? '正在试看，购买后可看完整课程' : '购买后即可观看本节'}
          </span>
          <Link to={purchaseHref(display.course)} className={styles.buyButton}>
            购买课程
          </Link>
          {display.course.vip_free ? (
            <Link to="/vipBuy" className={styles.vipButton}>
              VIP
            </Link>
          ) : null}
        </section>
      ) : null}

      <Tabs label="视频内容" items={PANELS} chosen={tab} onChoose={setTab} className={styles.tabs} />
      <section className={styles.panel} role="tabpanel">
        {tab === 'chapters' ? (
          <ChapterList
            chapters={display.chapters}
            current={vid}
            courseFree={display.course.is_free}
            fullAccess={access?.mode === 'full' && access.reason === 'entitled'}
          />
        ) : page ? (
          <NotesPanel
            vid={vid}
            signedIn={signedIn}
            canNote={page.access.mode !== 'none'}
            currentTime={() => videoRef.current?.currentTime ?? 0}
            onSeek={seek}
          />
        ) : (
          <Loading />
        )}
      </section>
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="视频播放" />
}
