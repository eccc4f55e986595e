import { useState } from 'react'
import { Link, useLoaderData } from 'react-router'
import { Avatar } from '#app/components/avatar/avatar.tsx'
import { VipStatus } from '#app/components/vip-status/vip-status.tsx'
import { MenuIcon } from '#app/components/menu-list/menu-icons.tsx'
import { MenuList, type MenuItem } from '#app/components/menu-list/menu-list.tsx'
import { api } from '#app/lib/api.ts'
import { authStore, maskPhone } from '#app/lib/auth-store.ts'
import { showLogin } from '#app/lib/events.ts'
import { memberData } from '#app/lib/services-context.ts'
import { useServerData } from '#app/lib/use-api-get.ts'
import { toast } from '#app/lib/toast.ts'
import { useProfile } from '#app/lib/use-profile.ts'
import styles from './mine.module.css'
import { ChevronIcon } from '#app/components/icons/line-icons.tsx'
import type { Route } from './+types/mine'

export function meta() {
  return [{ title: '我的 - 自学' }]
}

/** GET /userinfo's answer (profile and VIP) for the member of the session cookie (null: asked in the browser). */
export function loader({ context }: Route.LoaderArgs) {
  return memberData(context, (s, memberId) => s.userInfo(memberId))
}

const study: MenuItem[] = [
  { to: '/studyRecord', label: '学习记录', icon: <MenuIcon name="record" />, stat: 'studyRecord' },
  { to: '/myCollection', label: '我的收藏', icon: <MenuIcon name="favourites" />, stat: 'fav' },
  { to: '/ke2', label: '已购课程查询', icon: <MenuIcon name="purchaser" />, extra: '其他平台购买' },
]

const money: MenuItem[] = [
  { to: '/order', label: '我的订单', icon: <MenuIcon name="orders" /> },
  { to: '/mine/redeem', label: '兑换码', icon: <MenuIcon name="redeem" />, extra: '输入兑换码开通课程' },
  { to: '/points', label: '我的积分', icon: <MenuIcon name="points" />, extra: '积分兑换课程' },
  { to: '/foryou', label: '课程套餐', icon: <MenuIcon name="bundles" />, extra: '一起买更划算' },
  { to: '/wallet', label: '我的钱包', icon: <MenuIcon name="wallet" /> },
]

const more: MenuItem[] = [
  { to: '/customer', label: '联系客服', icon: <MenuIcon name="service" /> },
  { to: '/headPortrait', label: '个人资料', icon: <MenuIcon name="profile" />, extra: '头像、昵称' },
  { to: '/agreement/user', label: '用户协议' },
  { to: '/agreement/privacy', label: '隐私政策' },
  { to: '/mine/data', label: '导出数据与注销账号' },
]

/** The "mine" tab (spec 2, routes.md): who is logged in, the account menus and logout. */
export default function Mine() {
  const { state, retry } = useProfile(useServerData(useLoaderData<typeof loader>()))
  const [leaving, setLeaving] = useState(false)

  const logout = async () => {
    if (leaving) return
    setLeaving(true)
    // The session ends on the server when it can; the browser forgets it either way, and at least asks for the
    // session cookie to go, so that the member pages are not rendered for this session again.
    await api
      .post('/logout', undefined, { quiet: true })
      .catch(() => api.delete('/session/cookie', undefined, { quiet: true }).catch(() => undefined))
    authStore.logout()
    setLeaving(false)
    toast('已退出登录')
  }

  const user = state.status === 'ready' || state.status === 'loading' || state.status === 'error' ? state.user : null
  return (
    <main className={styles.page}>
      <section className={styles.header} aria-label="账号">
        {state.status === 'pending' || (state.status === 'loading' && !user?.nickname) ? (
          <div className={styles.who} aria-busy="true">
            <span className={styles.skeletonAvatar} />
            <div className={styles.names}>
              <span className={styles.skeletonLine} />
              <span className={styles.skeletonLineShort} />
            </div>
          </div>
        ) : state.status === 'anonymous' ? (
          <div className={styles.who}>
            <Avatar size={64} />
            <div className={styles.names}>
              <button type="button" className={styles.loginButton} onClick={() => showLogin({ target: '/mine' })}>
                登录 / 注册
              </button>
              <p className={styles.sub}>登录后同步学习进度和已购课程</p>
            </div>
          </div>
        ) : (
          <Link to="/headPortrait" className={styles.who}>
            <Avatar src={user?.avatar} size={64} />
            <div className={styles.names}>
              <p className={styles.nickname} data-testid="mine-nickname">
                {user?.nickname || '自学学员'}
              </p>
              <p className={styles.sub} data-testid="mine-phone">
                {user?.phone ? maskPhone(user.phone) : '未绑定手机号'}
              </p>
            </div>
            <ChevronIcon size={18} className={styles.chevron} />
          </Link>
        )}
      </section>

      {state.status === 'error' ? (
        <div className={styles.error} role="alert">
          <span>{state.message}</span>
          <button type="button" onClick={retry} className={styles.retry}>
            重试
          </button>
        </div>
      ) : null}

      {state.status === 'ready' && state.user.vip !== undefined ? <VipStatus membership={state.user.vip} /> : null}

      <div className={styles.menus}>
        <MenuList items={study} label="学习" />
        <MenuList items={money} label="订单与资产" />
        <MenuList items={more} label="服务与设置" />
      </div>

      {state.status === 'ready' || state.status === 'loading' || state.status === 'error' ? (
        <button type="button" className={styles.logout} onClick={() => void logout()} disabled={leaving}>
          {leaving ? '正在退出…' : '退出登录'}
        </button>
      ) : null}
    </main>
  )
}
