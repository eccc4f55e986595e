import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import type { HomeSection as FeedSection } from '#server/modules/home/home.schema.ts'
import type { CardFields } from '#app/components/course-card/card-fields.ts'
import { BareLink, isAppPath } from '#app/components/bare-link/bare-link.tsx'
import { CourseRow, CourseTile } from '#app/components/course-card/course-card.tsx'
import { Empty } from '#app/components/page-state/page-state.tsx'
import styles from './home.module.css'
import { SearchEntry } from '#app/components/search-box/search-entry.tsx'

/** A home feed section as the page shows it: its courses cut to what a card shows. */
type HomeSection = Omit<FeedSection, 'courses'> & { courses: CardFields[] }
type HomeFeed = { sections: HomeSection[] }

/** In-site paths go through the router; http(s) addresses open as ordinary links. */
function ItemLink({
  to,
  className,
  children,
  label,
}: {
  to: string | null
  className: string | undefined
  children: React.ReactNode
  label?: string
}) {
  if (!to) return <span className={className}>{children}</span>
  if (/^https?:\/\//.test(to)) {
    return (
      <a href={to} className={className} aria-label={label} rel="noopener noreferrer">
        {children}
      </a>
    )
  }
  if (isAppPath(to))
    return (
      <BareLink to={to} className={className} label={label}>
        {children}
      </BareLink>
    )
  return (
    <Link to={to} className={className} aria-label={label} prefetch="intent">
      {children}
    </Link>
  )
}

const AUTOPLAY_MS = 4000

/** Swipeable banners (CSS scroll snap) that advance on their own unless the visitor prefers reduced motion. */
function Banners({ section, first }: { section: HomeSection; first: boolean }) {
  const track = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(0)
  const count = section.items.length

  useEffect(() => {
    const el = track.current
    if (!el || count < 2 || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return
    let paused = false
    const pause = () => {
      paused = true
    }
    const resume = () => {
      paused = false
    }
    el.addEventListener('pointerdown', pause)
    el.addEventListener('pointerup', resume)
    el.addEventListener('touchstart', pause, { passive: true })
    el.addEventListener('touchend', resume)
    const timer = window.setInterval(() => {
      if (paused || document.hidden) return
      const next = (Math.round(el.scrollLeft / el.clientWidth) + 1) % count
      el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' })
    }, AUTOPLAY_MS)
    return () => {
      window.clearInterval(timer)
      el.removeEventListener('pointerdown', pause)
      el.removeEventListener('pointerup', resume)
      el.removeEventListener('touchstart', pause)
      el.removeEventListener('touchend', resume)
    }
  }, [count])

  return (
    <section className={styles.banners} aria-label="推荐">
      <div
        ref={track}
        className={styles.bannerTrack}
        onScroll={(e) => setActive(Math.round(e.currentTarget.scrollLeft / Math.max(1, e.currentTarget.clientWidth)))}
      >
        {section.items.map((item, i) => (
          <ItemLink key={item.id} to={item.link} className={styles.banner} label={item.title}>
            {item.image ? (
              <img
                src={item.image}
                alt={item.title}
                width={750}
                height={320}
                // The first banner is the home page's largest paint: fetch it first.
                loading={first && i === 0 ? 'eager' : 'lazy'}
                fetchPriority={first && i === 0 ? 'high' : 'auto'}
                decoding={first && i === 0 ? 'sync' : 'async'}
              />
            ) : (
              <span className={styles.bannerText}>{item.title}</span>
            )}
          </ItemLink>
        ))}
      </div>
      {count > 1 ? (
        <div className={styles.dots} aria-hidden="true">
          {section.items.map((item, i) => (
            <span key={item.id} className={i === active ? `${styles.dot} ${styles.dotActive}` : styles.dot} />
          ))}
        </div>
      ) : null}
    </section>
  )
}

function Shortcuts({ section }: { section: HomeSection }) {
  return (
    <nav className={styles.shortcuts} aria-label="课程分类">
      {section.items.map((item) => (
        <ItemLink key={item.id} to={item.link} className={styles.shortcut}>
          {item.image ? <img src={item.image} alt="" width={44} height={44} className={styles.shortcutIcon} /> : null}
          <span className={styles.shortcutLabel}>{item.title}</span>
        </ItemLink>
      ))}
    </nav>
  )
}

function CourseSection({ section, index }: { section: HomeSection; index: number }) {
  const headingId = `home-section-${section.id}`
  // Only the first course section can be above the fold on a phone.
  const eager = index <= 2
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <header className={styles.sectionHead}>
        <h2 id={headingId} className={styles.sectionTitle}>
          {section.title}
        </h2>
        {section.subtitle ? <span className={styles.sectionSub}>{section.subtitle}</span> : null}
        {section.more_link ? (
          <Link to={section.more_link} className={styles.more} aria-label={`${section.title}：查看更多`}>
            更多
            <span aria-hidden="true"> ›</span>
          </Link>
        ) : null}
      </header>
      {section.kind === 'grid' ? (
        <ul className={styles.grid}>
          {section.courses.map((c, i) => (
            <li key={c.id}>
              <CourseTile course={c} eager={eager && i < 2} />
            </li>
          ))}
        </ul>
      ) : (
        <ul className="zx-dividedList">
          {section.courses.map((c, i) => (
            <li key={c.id}>
              <CourseRow course={c} rank={section.kind === 'ranking' ? i + 1 : undefined} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The sections of a home feed (GET /v3/index or /v2/index), in the order the feed gives. */
export function HomeFeedView({ feed }: { feed: HomeFeed }) {
  if (feed.sections.length === 0) return <Empty message="还没有上架的课程，稍后再来看看吧" />
  const firstBanner = feed.sections.find((s) => s.kind === 'banner')
  return (
    <>
      {feed.sections.map((section, index) => {
        if (section.kind === 'banner')
          return <Banners key={section.id} section={section} first={section === firstBanner} />
        if (section.kind === 'shortcuts') return <Shortcuts key={section.id} section={section} />
        return <CourseSection key={section.id} section={section} index={index} />
      })}
      <p className={styles.end}>— 已经到底了 —</p>
    </>
  )
}

/** The brand and the search entry at the top of the home pages. */
export function HomeHeader({ hotWord }: { hotWord: string | null }) {
  return (
    <header className={styles.header}>
      <span className={styles.brand}>自学</span>
      <SearchEntry>
        <span className={styles.searchText}>{hotWord ? `大家都在搜：${hotWord}` : '搜索课程'}</span>
      </SearchEntry>
    </header>
  )
}
