import { BindPhoneForm } from '#app/components/bind-phone/bind-phone-form.tsx'
import { LoginForm } from '#app/components/login-popup/login-form.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { useNavigate } from 'react-router'
import { maskPhone } from '#app/lib/auth-store.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import styles from './purchaser-login.module.css'

export function meta() {
  return [
    { title: '已购课程查询 - 自学' },
    { name: 'description', content: '用购买课程时的手机号登录，查看在其他平台购买的自学课程。' },
  ]
}

/**
 * /ke2: forced purchaser login (spec 6). Learners who bought on another shop log in with the phone they bought
 * with; only that method is offered, and afterwards they land on their purchased courses.
 */
export default function PurchaserLogin() {
  const hydrated = useHydrated()
  const { token, user } = useAuth()
  const navigate = useNavigate()
  // Signed in without a phone (came in through WeChat): the purchase phone is bound to this account instead.
  const needsPhone = hydrated && token !== null && user !== null && !user.phone
  return (
    <div className="zx-screen">
      <NavBar title="已购课程查询" backTo="/mine" />
      <main className={styles.body}>
        <section className={styles.intro}>
          <h2 className="zx-title">在其他平台买过自学的课程？</h2>
          <p className={styles.text}>用购买课程时留下的手机号登录，即可在“已购”里看到并学习你的课程。</p>
        </section>
        {needsPhone ? (
          <div className={styles.card}>
            <p className={styles.current}>当前微信账号还没有绑定手机号。绑定购买课程时用的手机号，即可看到已购课程。</p>
            <BindPhoneForm onBound={() => void navigate('/ke1')} />
          </div>
        ) : null}
        {hydrated && token && !needsPhone ? (
          <p className={styles.current}>
            当前已登录{user?.phone ? `（${maskPhone(user.phone)}）` : ''}。用其他手机号登录会切换账号。
          </p>
        ) : null}
        {needsPhone ? null : (
          <div className={styles.card}>
            <LoginForm target="/ke1" ke2 />
          </div>
        )}
      </main>
    </div>
  )
}
