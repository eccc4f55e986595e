import { LogoutOutlined, MenuOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Button, Drawer, Grid, Layout, Menu, Space, Spin, Tag, Typography } from 'antd'
import { useEffect, useState, type ReactNode } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { StaffRoleNames } from '#shared/staff/roles.ts'
import { api, ConsoleError } from './lib/client.ts'
import { useMe } from './lib/me.ts'
import { forgetToken } from './lib/token.ts'
import { Sections } from './nav.ts'
import NoAccess from './screens/no-access.tsx'

/**
 * Replaces the address with the sign-in page. React Router's <Navigate> does the same, but it would add its code to
 * the router chunk every learner page loads (issue 11 §4).
 */
function ToSignIn() {
  const navigate = useNavigate()
  useEffect(() => {
    void navigate('/admin/login', { replace: true })
  }, [navigate])
  return null
}

/**
 * A menu entry. Every /admin address is the console's one route (admin/*), so React Router need not ask the server
 * which routes its menu's ~35 links lead to (`/__manifest?paths=…` after each first load).
 */
function MenuLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} discover="none">
      {children}
    </Link>
  )
}

/**
 * The console's frame: the menu (only what the member's roles open), who is signed in, sign-out. Not signed in:
 * the sign-in page; signed in without a staff role: 无权限.
 */
export function ConsoleLayout({ children }: { children: ReactNode }) {
  const { me, error, isPending, may, mayOwn } = useMe()
  const { pathname } = useLocation()
  const screens = Grid.useBreakpoint()
  const [drawer, setDrawer] = useState(false)
  const client = useQueryClient()

  if (isPending) return <Spin fullscreen tip="加载中…" />
  if (error instanceof ConsoleError && error.signIn) return <ToSignIn />
  if (error instanceof ConsoleError && error.forbidden) return <NoAccess />
  if (!me) return <div className="zx-console-center">加载失败：{error?.message}，请刷新重试。</div>

  const items = Sections.map((s) => ({
    key: s.key,
    type: 'group' as const,
    label: s.label,
    children: s.items
      .filter((i) => (i.own ? mayOwn(i.permission) : may(i.permission)))
      .map((i) => ({ key: i.path, label: <MenuLink to={i.path}>{i.label}</MenuLink> })),
  })).filter((g) => g.children.length > 0)
  const selected = Sections.flatMap((s) => s.items)
    .filter((i) => pathname === i.path || pathname.startsWith(`${i.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path
  const menu = (
    <Menu
      mode="inline"
      items={[{ key: '/admin', label: <MenuLink to="/admin">工作台</MenuLink> }, ...items]}
      selectedKeys={[selected ?? '/admin']}
      onClick={() => setDrawer(false)}
    />
  )
  const signOut = async () => {
    await api.post('/logout').catch(() => undefined)
    forgetToken()
    client.clear()
    window.location.assign('/admin/login')
  }
  const wide = screens.lg !== false

  return (
    <Layout className="zx-console-layout">
      {wide ? (
        <Layout.Sider width={208} theme="light" className="zx-console-sider">
          <div className="zx-console-brand">自学 · 运营后台</div>
          {menu}
        </Layout.Sider>
      ) : (
        <Drawer open={drawer} onClose={() => setDrawer(false)} placement="left" size={240} title="自学 · 运营后台">
          {menu}
        </Drawer>
      )}
      <Layout>
        <Layout.Header className="zx-console-header">
          {!wide && <Button icon={<MenuOutlined />} onClick={() => setDrawer(true)} aria-label="打开菜单" />}
          <Space className="zx-console-who">
            <Typography.Text strong>{me.nickname}</Typography.Text>
            <Typography.Text type="secondary">{me.phone}</Typography.Text>
            {me.roles.map((r) => (
              <Tag key={r} color="blue">
                {StaffRoleNames[r]}
              </Tag>
            ))}
            <Button icon={<LogoutOutlined />} onClick={signOut}>
              退出
            </Button>
          </Space>
        </Layout.Header>
        <Layout.Content className="zx-console-content">{children}</Layout.Content>
      </Layout>
    </Layout>
  )
}
