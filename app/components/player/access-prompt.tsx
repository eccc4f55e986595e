import { Link } from 'react-router'
import type { CourseCard } from '#shared/api/catalogue.ts'
import { formatYuan } from '#shared/money.ts'
import { showLogin } from '#app/lib/events.ts'
import styles from './overlays.module.css'

export type PromptCourse = Pick<CourseCard, 'id' | 'price_fen' | 'vip_free'>

/** Straight to the checkout of the course (its page when it has no price of its own, e.g. sold in bundles only). */
export function purchaseHref(course: PromptCourse) {
  return course.price_fen > 0 ? `/course/coursePurchase?course_id=${course.id}` : `/course/${course.id}.html`
}

/**
 * Covers the video when nothing more may be played: the end of the free preview, or a lesson that needs buying.
 * Buying opens the course's checkout; VIP (only for a VIP-free course, the one VIP opens) its checkout. An anonymous visitor who may
 * have bought already is offered the login too.
 */
export function AccessPrompt({
  kind,
  course,
  loginHint,
  onReplay,
}: {
  kind: 'preview-ended' | 'locked'
  course: PromptCourse
  loginHint: boolean
  onReplay?: () => void
}) {
  return (
    <div className={styles.prompt} role="dialog" aria-labelledby="access-prompt-title" data-testid="access-prompt">
      <p id="access-prompt-title" className={styles.promptTitle}>
        {kind === 'preview-ended' ? '试看已结束' : '本节为付费内容'}
      </p>
      <p className={styles.promptText}>
        {course.vip_free ? '购买课程或开通 VIP 后即可观看完整视频' : '购买课程后即可观看完整视频'}
      </p>
      <div className={styles.promptActions}>
        <Link to={purchaseHref(course)} className={styles.promptBuy}>
          购买课程 {course.price_fen > 0 ? `¥${formatYuan(course.price_fen)}` : ''}
        </Link>
        {course.vip_free ? (
          <Link to="/vipBuy" className={styles.promptVip}>
            开通 VIP 免费学
          </Link>
        ) : null}
      </div>
      <div className={styles.promptLinks}>
        {loginHint ? (
          <button type="button" className={styles.promptLink} onClick={() => showLogin()}>
            已购买？去登录
          </button>
        ) : null}
        {onReplay ? (
          <button type="button" className={styles.promptLink} onClick={onReplay}>
            重新试看
          </button>
        ) : null}
      </div>
    </div>
  )
}

/** A message over the video (processing, errors), with an optional action. */
export function StageMessage({ text, action, onAction }: { text: string; action?: string; onAction?: () => void }) {
  return (
    <div className={styles.prompt} role="alert">
      <p className={styles.promptText}>{text}</p>
      {action && onAction ? (
        <button type="button" className={styles.promptVip} onClick={onAction}>
          {action}
        </button>
      ) : null}
    </div>
  )
}
