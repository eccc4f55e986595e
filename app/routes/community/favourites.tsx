import { useCallback, useEffect, useState } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { FavCalc, FavItem, FavList } from '#server/modules/favourites/favourites.schema.ts'
import type { CourseCardList } from '#server/modules/catalogue/recommend.schema.ts'
import { CheckoutPanel } from '#app/components/checkout/checkout-panel.tsx'
import { CourseRow } from '#app/components/course-card/course-card.tsx'
import { formatDuration } from '#app/components/course-card/course-format.ts'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Section } from '#app/components/section/section.tsx'
import { Tabs } from '#app/components/choices/choices.tsx'
import { Empty, ListEnd, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { memberData } from '#app/lib/services-context.ts'
import { formatYuan } from '#shared/money.ts'
import { toast } from '#app/lib/toast.ts'
import { useApiGet, useServerData } from '#app/lib/use-api-get.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import styles from './favourites.module.css'
import type { Route } from './+types/favourites'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

export function meta() {
  return [{ title: '我的收藏 - 自学' }, { name: 'robots', content: 'noindex' }]
}

/**
 * For the member of the session cookie (null: asked in the browser): the course tab, what its unowned courses cost
 * together, and the picks shown when it is empty.
 */
export function loader({ context }: Route.LoaderArgs) {
  return memberData(context, (s, memberId) => s.favourites(memberId))
}

/**
 * "一起购买": the favourite paid courses not owned yet, bought in one order (POST /fav/pay) with the usual
 * coupon, points and payment method. The list is the one GET /fav/calc gave; the server refuses if it changed.
 */
function BuyTogether({ courseIds, onClose }: { courseIds: number[]; onClose: () => void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div className={styles.sheet} role="dialog" aria-modal="true" aria-label="确认订单">
      <div className={styles.sheetHead}>
        <span>确认订单</span>
        <button type="button" className={styles.sheetClose} onClick={onClose}>
          关闭
        </button>
      </div>
      <div className={styles.sheetBody}>
        <CheckoutPanel
          previewPath="/fav/pay/preview"
          query={{ course_ids: courseIds.join(',') }}
          payPath="/fav/pay"
          payBody={{ course_ids: courseIds }}
        >
          {(preview) => (
            <ul className={styles.sheetItems} aria-label={`共 ${preview.items.length} 门课程`}>
              {preview.items.map((item) => (
                <li key={item.course_id} className={styles.sheetItem}>
                  <span>{item.title}</span>
                  <span>¥{formatYuan(item.price_fen)}</span>
                </li>
              ))}
            </ul>
          )}
        </CheckoutPanel>
      </div>
    </div>
  )
}

type Kind = 'course' | 'video'
const TABS: { key: Kind; label: string }[] = [
  { key: 'course', label: '课程' },
  { key: 'video', label: '视频' },
]

type TabState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; list: FavItem[]; cursor: string | null }

const targetId = (kind: Kind, item: FavItem) => (kind === 'course' ? item.course.id : item.video!.id)

/**
 * "为你推荐" under an empty favourites list: from what the member watched and favourited, or popular courses; never
 * one they own (`initial`: the server's answer).
 */
function Recommendations({ initial }: { initial: CourseCardList | undefined }) {
  const asked = useApiGet<CourseCardList>(initial ? null : '/center/recommend', { query: { limit: 6 } })
  const list = (initial ?? asked.data)?.list
  if (!list || list.length === 0) return null
  return (
    <Section id="recommend-title" title="为你推荐" className={styles.recommend} titleClassName={styles.recommendTitle}>
      <ul className="zx-dividedList">
        {list.map((c) => (
          <li key={c.id}>
            <CourseRow course={c} owned={false} />
          </li>
        ))}
      </ul>
    </Section>
  )
}

function VideoRow({ item }: { item: FavItem }) {
  const v = item.video!
  return (
    <Link to={`/v/${v.id}.html`} className={styles.videoRow}>
      <span className={styles.videoCover}>
        <CoverImage loading="lazy" src={item.course.cover} sizes="112px" width={160} height={90} />
        <span className={styles.videoDuration}>{formatDuration(v.duration)}</span>
      </span>
      <span className={styles.videoText}>
        <span className={styles.videoTitle}>{v.title}</span>
        <span className={styles.videoCourse}>{item.course.title}</span>
      </span>
    </Link>
  )
}

/** A row in edit mode: the whole row toggles its checkbox. */
function SelectableRow({
  kind,
  item,
  checked,
  onToggle,
}: {
  kind: Kind
  item: FavItem
  checked: boolean
  onToggle: () => void
}) {
  return (
    <label className={styles.selectRow}>
      <input
        type="checkbox"
        className={styles.check}
        checked={checked}
        onChange={onToggle}
        aria-label={kind === 'course' ? item.course.title : item.video!.title}
      />
      <span className={styles.selectCover}>
        <CoverImage loading="lazy" src={item.course.cover} sizes="112px" width={160} height={90} />
      </span>
      <span className={styles.videoText}>
        <span className={styles.videoTitle}>{kind === 'course' ? item.course.title : item.video!.title}</span>
        <span className={styles.videoCourse}>
          {kind === 'course' ? (item.course.teacher_name ?? '') : item.course.title}
        </span>
      </span>
    </label>
  )
}

/**
 * /myCollection: favourite courses and videos in two tabs, newest first; "管理" switches to batch edit
 * (checkboxes, select all, 取消收藏 through POST /fav/batchCancel); the course tab shows what the unowned paid
 * favourites cost together (GET /fav/calc) and "一起购买" buys them in one order.
 */
export default function Favourites() {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const server = useServerData(useLoaderData<typeof loader>())
  const [kind, setKind] = useState<Kind>('course')
  const [tabs, setTabs] = useState<Record<Kind, TabState>>({
    course: { status: 'loading' },
    video: { status: 'loading' },
  })
  const [loaded, setLoaded] = useState<Record<Kind, number>>({ course: 0, video: 0 })
  // undefined: not asked in the browser (the server's, if any); null: the last ask failed.
  const [asked, setCalc] = useState<FavCalc | null>()
  const calc = asked === undefined ? (server?.calc ?? null) : asked
  const [editing, setEditing] = useState(false)
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [busy, setBusy] = useState(false)
  const [buying, setBuying] = useState(false)
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle')

  // Each tab loads when first shown, and again when its `loaded` counter moves (retry, after a batch cancel).
  const attempt = loaded[kind]
  const fromServer = kind === 'course' && attempt === 0 && server !== undefined
  useEffect(() => {
    if (!token || fromServer) return
    const controller = new AbortController()
    api
      .get<FavList>('/center/fav', { type: kind }, { quiet: true, signal: controller.signal })
      .then((p) => setTabs((t) => ({ ...t, [kind]: { status: 'ready', list: p.list, cursor: p.next_cursor } })))
      .catch((e: unknown) => {
        if (!controller.signal.aborted)
          setTabs((t) => ({ ...t, [kind]: { status: 'error', message: errorMessage(e, '收藏加载失败') } }))
      })
    return () => controller.abort()
  }, [token, kind, attempt, fromServer])

  const refreshCalc = useCallback(() => {
    api
      .get<FavCalc>('/fav/calc', undefined, { quiet: true })
      .then(setCalc)
      .catch(() => setCalc(null))
  }, [])
  useEffect(() => {
    if (token && !server) refreshCalc()
  }, [token, refreshCalc, server])

  const tab: TabState =
    fromServer && tabs.course.status === 'loading'
      ? { status: 'ready', list: server.list.list, cursor: server.list.next_cursor }
      : tabs[kind]
  const list = tab.status === 'ready' ? tab.list : []

  function switchTab(next: Kind) {
    if (next === kind) return
    setKind(next)
    setEditing(false)
    setSelected(new Set())
    setMore('idle')
  }

  function toggle(id: number) {
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  async function loadMore() {
    if (tab.status !== 'ready' || !tab.cursor || more === 'loading') return
    setMore('loading')
    try {
      const p = await api.get<FavList>('/center/fav', { type: kind, cursor: tab.cursor }, { quiet: true })
      setTabs((t) => {
        // The course tab may still be the server's first page.
        const cur = t[kind].status === 'ready' ? t[kind] : tab
        return cur.status === 'ready'
          ? { ...t, [kind]: { status: 'ready', list: [...cur.list, ...p.list], cursor: p.next_cursor } }
          : t
      })
      setMore('idle')
    } catch {
      setMore('error')
    }
  }

  async function cancelSelected() {
    if (selected.size === 0 || busy) return
    setBusy(true)
    try {
      const ids = [...selected]
      const r = await api.post<{ cancelled_courses: number; cancelled_videos: number }>(
        '/fav/batchCancel',
        kind === 'course' ? { course_ids: ids } : { vids: ids },
      )
      toast(`已取消收藏 ${r.cancelled_courses + r.cancelled_videos} 项`)
      setTabs((t) => ({
        ...t,
        [kind]: {
          status: 'ready',
          list: list.filter((i) => !selected.has(targetId(kind, i))),
          cursor: tab.status === 'ready' ? tab.cursor : null,
        },
      }))
      setSelected(new Set())
      setEditing(false)
      refreshCalc()
    } catch {
      // The request wrapper has shown why.
    } finally {
      setBusy(false)
    }
  }

  if (!server && !hydrated) {
    return (
      <main className={styles.page}>
        <NavBar title="我的收藏" backTo="/mine" />
        <Loading />
      </main>
    )
  }
  if (!server && !token) {
    return (
      <main className={styles.page}>
        <NavBar title="我的收藏" backTo="/mine" />
        <LoginRequired reason="登录后查看你收藏的课程和视频" />
      </main>
    )
  }

  const allIds = list.map((i) => targetId(kind, i))
  const allSelected = allIds.length > 0 && allIds.every((id) => selected.has(id))
  const manage =
    list.length > 0 ? (
      <button
        type="button"
        className={styles.manage}
        onClick={() => {
          setEditing((e) => !e)
          setSelected(new Set())
        }}
      >
        {editing ? '完成' : '管理'}
      </button>
    ) : null

  return (
    <main className={`${styles.page} ${styles.withBar}`}>
      <NavBar title="我的收藏" backTo="/mine" right={manage} />
      <Tabs label="收藏类型" items={TABS} chosen={kind} onChoose={switchTab} className={styles.tabs} />

      <div role="tabpanel" className={styles.panel}>
        {tab.status === 'loading' ? (
          <Loading />
        ) : tab.status === 'error' ? (
          <LoadError message={tab.message} onRetry={() => setLoaded((l) => ({ ...l, [kind]: l[kind] + 1 }))} />
        ) : list.length === 0 ? (
          <>
            <div className={styles.empty}>
              <Empty message={kind === 'course' ? '还没有收藏的课程，在课程页点 ♡ 就能收藏' : '还没有收藏的视频'} />
              <Link to="/ke" className={styles.linkButton}>
                去逛逛课程
              </Link>
            </div>
            {kind === 'course' ? <Recommendations initial={server?.recommend ?? undefined} /> : null}
          </>
        ) : (
          <>
            <ul className="zx-dividedList" data-testid="favourites-list">
              {list.map((item, i) => (
                <li key={item.fav_id}>
                  {editing ? (
                    <SelectableRow
                      kind={kind}
                      item={item}
                      checked={selected.has(targetId(kind, item))}
                      onToggle={() => toggle(targetId(kind, item))}
                    />
                  ) : kind === 'course' ? (
                    <CourseRow course={item.course} eager={i < 3} owned={item.owned} />
                  ) : (
                    <VideoRow item={item} />
                  )}
                </li>
              ))}
            </ul>
            <ListEnd hasMore={tab.cursor !== null} state={more} onMore={() => void loadMore()} />
          </>
        )}
      </div>

      {editing ? (
        <div className={styles.bar}>
          <label className={styles.selectAll}>
            <input
              type="checkbox"
              className={styles.check}
              checked={allSelected}
              onChange={() => setSelected(allSelected ? new Set() : new Set(allIds))}
            />
            全选
          </label>
          <button
            type="button"
            className={styles.danger}
            disabled={selected.size === 0 || busy}
            onClick={() => void cancelSelected()}
          >
            {busy ? '正在取消…' : `取消收藏${selected.size > 0 ? `（${selected.size}）` : ''}`}
          </button>
        </div>
      ) : kind === 'course' && calc && calc.count > 0 ? (
        <div className={styles.bar} data-testid="fav-calc">
          <p className={styles.total}>
            <span className={styles.totalNote}>{calc.count} 门未购课程，合计</span>
            <span className={styles.totalAmount}>¥{formatYuan(calc.total_price_fen)}</span>
            {calc.original_total_fen > calc.total_price_fen ? (
              <s className={styles.totalOriginal}>¥{formatYuan(calc.original_total_fen)}</s>
            ) : null}
          </p>
          <button type="button" className={styles.buy} onClick={() => setBuying(true)}>
            一起购买
          </button>
        </div>
      ) : null}
      {buying && calc ? <BuyTogether courseIds={calc.course_ids} onClose={() => setBuying(false)} /> : null}
    </main>
  )
}
