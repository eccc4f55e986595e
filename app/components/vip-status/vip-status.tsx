import { Link } from 'react-router'
import type { MemberVip } from '#shared/api/members.ts'
import { beijingDate } from '#shared/time.ts'
import styles from './vip-status.module.css'

/**
 * The member's VIP on /mine: running (until which day), ended (on which day, renew), or none (open one); it comes
 * with the profile (GET /userinfo, or the page's server render).
 */
export function VipStatus({ membership }: { membership: MemberVip | null }) {
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
