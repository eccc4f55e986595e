import { Link, Outlet } from 'react-router'
import { TAB_ICONS } from '../icons.tsx'

const TABS = [
  ['/', '首页', 'home'],
  ['/boutique', '分类', 'category'],
  ['/vip', '会员', 'vip'],
  ['/ke1', '已购', 'purchased'],
  ['/mine', '我的', 'mine'],
] as const

export default function Tabs() {
  return (
    <>
      <Outlet />
      <nav>
        {TABS.map(([to, label, icon]) => (
          <Link key={to} to={to}>
            {TAB_ICONS[icon]}
            {label}
          </Link>
        ))}
      </nav>
    </>
  )
}
