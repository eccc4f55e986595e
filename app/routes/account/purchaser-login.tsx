import { BindPhoneForm } from '#app/components/bind-phone/bind-phone-form.tsx'
import { UnexchangedOrders } from '#app/components/exchange/unexchanged-orders.tsx'
import { LoginForm } from '#app/components/login-popup/login-form.tsx'
import { MenuList } from '#app/components/menu-list/menu-list.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { maskPhone } from '#app/lib/auth-store.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import { useProfile } from '#app/lib/use-profile.ts'
import { ExchangeShops } from '#shared/api/exchange-shops.ts'
import styles from './purchaser-login.module.css'

export function meta() {
  return [
    { title: '已购课程查询 - 自学' },
    { name: 'description', content: '用购买课程时的手机号登录，查看并兑换在其他平台购买的自学课程。' },
  ]
}

/** The links under the list: each shop's exchange screen (the registry), the purchased list, the record. */
const links = [
  ...ExchangeShops.map((s) => ({ to: s.page, label: `${s.name}订单兑换`, extra: s.accepts })),
  { to: '/ke1', label: '已购课程', extra: '兑换后在这里学习' },
  { to: '/order4', label: '兑换记录', extra: '兑换码和平台订单' },
]

/**
 * /ke2: forced purchaser login (spec 6). Learners who bought on another shop log in with the phone they bought
 * with (only that method is offered); then every registered shop's orders bought with that phone and not exchanged
 * yet are listed with "全部兑换", and each shop's exchange screen is one tap away.
 */
export default function PurchaserLogin() {
  const hydrated = useHydrated()
  const { token, user } = useAuth()
  // The stored user info may be older than the token (a WeChat sign-in): ask who this is, phone included.
  useProfile()
  // Signed in without a phone (came in through WeChat): the purchase phone is bound to this account instead.
  const needsPhone = hydrated && token !== null && user !== null && !user.phone
  const phone = hydrated && token && user?.phone ? maskPhone(user.phone) : null
  return (
    <div className="zx-screen">
      <NavBar title="已购课程查询" backTo="/mine" />
      <main className={styles.body}>
        <section className={styles.intro}>
          <h2 className="zx-title">在其他平台买过自学的课程？</h2>
          <p className={styles.text}>用购买课程时留下的手机号登录，即可兑换订单，在“已购”里学习你的课程。</p>
        </section>
        {needsPhone ? (
          <div className={styles.card}>
            <p className={styles.current}>当前微信账号还没有绑定手机号。绑定购买课程时用的手机号，即可看到已购课程。</p>
            <BindPhoneForm onBound={() => window.location.reload()} />
          </div>
        ) : null}
        {phone ? (
          <>
            <UnexchangedOrders shops={ExchangeShops} title={`用 ${phone} 购买、还没兑换的订单`} />
            <section className={styles.section}>
              <h2 className={styles.sectionTitle}>按平台兑换</h2>
              <MenuList items={links} label="兑换入口" />
            </section>
            <p className={styles.current}>当前已登录（{phone}）。用其他手机号登录会切换账号。</p>
          </>
        ) : null}
        {needsPhone ? null : (
          <div className={styles.card}>
            <LoginForm target="/ke2" ke2 stay />
          </div>
        )}
      </main>
    </div>
  )
}
