import { Link } from 'react-router'
import type { z } from 'zod'
import type { VipMembership } from '#server/modules/vip/vip.schema.ts'
import { beijingDate } from '#shared/time.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import styles from './vip-status.module.css'

type Membership = z.infer<typeof VipMembership>

/**
 * The member's VIP on /mine: running (until which day), ended (on which day, renew), or none (open one). Asked in
 * the browser (the token lives in localStorage); nothing for visitors or until it answers.
 */
export function VipStatus() {
  const answer = useApiGet<{ membership: Membership | null }>('/v2/vip', { member: true })
  if (!answer.data) return null
  const membership = answer.data.membership
  const running = membership?.active === true
  return (
    <Link
      to={running ? '/vip' : '/vipBuy'}
      className={running ? `${styles.card} ${styles.running}` : styles.card}
      data-testid="mine-vip"
    >
      <span className={styles.crown} aria-hidden="true">
        VIP
      </span>
      <span className={styles.text}>
        <span className={styles.title}>
          {running ? '自学 VIP 会员' : membership ? 'VIP 会员已到期' : '开通 VIP 会员'}
        </span>
        <span className={styles.sub}>
          {membership
            ? running
              ? `有效期至 ${beijingDate(new Date(membership.expires_at))}`
              : `已于 ${beijingDate(new Date(membership.expires_at))} 到期`
            : '会员免费课程随心学'}
        </span>
      </span>
      <span className={styles.action}>{running ? '查看' : membership ? '续费' : '去开通'}</span>
    </Link>
  )
}
