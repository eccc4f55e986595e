import { Link, Outlet } from 'react-router'

const TABS = [
  ['/', '首页'],
  ['/boutique', '分类'],
  ['/vip', '会员'],
  ['/ke1', '已购'],
  ['/mine', '我的'],
] as const

export default function Tabs() {
  return (
    <>
      <Outlet />
      <nav>
        {TABS.map(([to, label]) => (
          <Link key={to} to={to}>
            {label}
          </Link>
        ))}
      </nav>
    </>
  )
}
