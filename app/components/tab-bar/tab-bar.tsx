import { useLocation } from 'react-router'
import { BareLink } from '#app/components/bare-link/bare-link.tsx'
import { sendStat } from '#app/lib/stat.ts'
import { TABS, tabForPath, type TabKey } from '#app/lib/route-rules.ts'
import { TabIcon } from './tab-icons.tsx'
import styles from './tab-bar.module.css'

/** Tabs whose taps are counted (spec 6 and 7: position 1, only when logged in). */
const TAB_STATS: Partial<Record<TabKey, 'vipTarbar' | 'myCourse'>> = { vip: 'vipTarbar', purchased: 'myCourse' }

/**
 * The bottom tab bar of the five tab screens (it is drawn by their shared layout route, so it cannot appear
 * anywhere else). Tabs are real links, and switching replaces the history entry (spec 2) so Back leaves the
 * tabs instead of walking through them.
 */
export function TabBar() {
  const { pathname } = useLocation()
  const active = tabForPath(pathname)
  return (
    <nav className={styles.bar} aria-label="主导航">
      {TABS.map((tab) => {
        const isActive = tab.key === active
        return (
          <BareLink
            key={tab.key}
            to={tab.path}
            replace
            className={isActive ? `${styles.tab} ${styles.active}` : styles.tab}
            aria-current={isActive ? 'page' : undefined}
            data-tab={tab.key}
            onClick={() => {
              const stat = TAB_STATS[tab.key]
              if (stat) sendStat(stat, { position: 1 })
            }}
          >
            <TabIcon tab={tab.key} active={isActive} />
            <span className={styles.label}>{tab.label}</span>
          </BareLink>
        )
      })}
    </nav>
  )
}
