import { Link } from 'react-router'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import styles from './checkout.module.css'

/**
 * "订单不存在" (an unknown order number, or another member's order) with the way on: the member's orders. A retry
 * would only say the same again, so there is none.
 */
export function NoSuchOrder({ message }: { message: string }) {
  return (
    <div className={styles.body}>
      <LoadError message={message} />
      <Link to="/order" className={styles.linkButton}>
        查看我的订单
      </Link>
    </div>
  )
}
