import type { ReactNode } from 'react'
import { Link } from 'react-router'
import styles from './study.module.css'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/** A progress bar with its figure beside it (`children`) and maybe a link after (`after`), as study screens show it. */
export function ProgressRow({
  percent,
  label,
  children,
  after,
}: {
  percent: number
  label: string
  children: ReactNode
  after?: ReactNode
}) {
  return (
    <div className={styles.progressRow}>
      <span
        className={styles.bar}
        role="progressbar"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label={label}
      >
        <span style={{ width: `${percent}%` }} />
      </span>
      <span className={styles.percent}>{children}</span>
      {after}
    </div>
  )
}

/**
 * One entry of the member's study lists (/ke1, /studyRecord, /ke3): the cover (a link), the title, a line under
 * it (`detail`), the progress, when it was studied and the button to go on.
 */
export function StudyItem(props: {
  coverTo: string
  cover: string
  title: string
  detail: ReactNode
  percent: number
  /** What the progress bar measures (screen readers); 学习进度 unless said. */
  progressLabel?: string
  progressText: ReactNode
  when: string
  actionTo: string
  actionText: string
}) {
  return (
    <li className={styles.item}>
      <Link to={props.coverTo} className={styles.cover}>
        <CoverImage loading="lazy" src={props.cover} width={112} height={63} />
      </Link>
      <div className={styles.body}>
        <span className="zx-rowTitle">{props.title}</span>
        {props.detail}
        <ProgressRow percent={props.percent} label={props.progressLabel ?? '学习进度'}>
          {props.progressText}
        </ProgressRow>
        <div className={styles.footRow}>
          <span className={styles.when}>{props.when}</span>
          <Link to={props.actionTo} className={styles.continue}>
            {props.actionText}
          </Link>
        </div>
      </div>
    </li>
  )
}
