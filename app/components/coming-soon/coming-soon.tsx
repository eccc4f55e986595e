import type { MetaDescriptor } from 'react-router'
import { Link } from 'react-router'
import { MessageScreen } from '#app/components/message-screen/message-screen.tsx'
import message from '#app/components/message-screen/message-screen.module.css'
import styles from './coming-soon.module.css'

/** Which piece of work brings the screen (docs/routes.md keeps the same status per URL). */
type Arrival = 'learning' | 'commerce' | 'later'

export interface ComingSoonScreen {
  /** The screen's Chinese title, shown in the nav bar and the document title. */
  title: string
  /** One or two plain sentences: what the page will be for. */
  purpose: string
  arrives: Arrival
  /** Useful places to go instead; the home page is always offered. */
  links?: { to: string; label: string }[]
  /** Staff-only screens say so. */
  staffOnly?: boolean
}

const SOON_TEXT = '该功能即将上线'

/** The document title and description of a coming-soon screen. */
export function comingSoonMeta(screen: ComingSoonScreen): MetaDescriptor[] {
  return [{ title: `${screen.title} - 自学` }, { name: 'description', content: screen.purpose }]
}

/**
 * The honest placeholder of a screen whose feature is not built yet: its real title, what it is for, that it
 * opens soon, and links to places that work today. It never shows made-up data.
 */
export function ComingSoon({ screen }: { screen: ComingSoonScreen }) {
  const links = [...(screen.links ?? [])]
  if (!links.some((l) => l.to === '/')) links.push({ to: '/', label: '返回首页' })
  return (
    <MessageScreen title={screen.title}>
      <svg className={styles.art} viewBox="0 0 120 96" aria-hidden="true">
        <rect x="14" y="18" width="92" height="62" rx="10" fill="var(--zx-color-primary-light)" />
        <rect x="26" y="32" width="44" height="6" rx="3" fill="var(--zx-color-primary)" opacity="0.55" />
        <rect x="26" y="46" width="68" height="6" rx="3" fill="var(--zx-color-primary)" opacity="0.3" />
        <rect x="26" y="60" width="52" height="6" rx="3" fill="var(--zx-color-primary)" opacity="0.3" />
        <circle cx="94" cy="22" r="14" fill="var(--zx-color-primary)" />
        <path d="M94 14v9l6 3" stroke="#fff" strokeWidth="3" strokeLinecap="round" fill="none" />
      </svg>
      <p className={styles.badge}>{SOON_TEXT}</p>
      <h2 className="zx-title">{screen.title}</h2>
      <p className={message.text}>{screen.purpose}</p>
      {screen.staffOnly ? <p className={styles.note}>此页面供老师和客服人员使用。</p> : null}
      <nav className={message.actions} aria-label="可以先去这些地方">
        {links.map((l, i) => (
          <Link key={l.to} to={l.to} className={i === 0 ? message.primary : message.secondary}>
            {l.label}
          </Link>
        ))}
      </nav>
    </MessageScreen>
  )
}
