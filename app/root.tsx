import 'antd-mobile/es/global/global.css'
import './styles/theme.css'
import './styles/global.css'
import './styles/ui.css'
import { useContext, useEffect, type ReactNode } from 'react'
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
} from 'react-router'
import type { Route } from './+types/root'
import { ErrorPage, missingOf } from '#app/components/error-page/error-page.tsx'
import { LinkDelegation } from '#app/components/bare-link/bare-link.tsx'
import { LoadingBar } from '#app/components/loading-bar/loading-bar.tsx'
import { LoginHost } from '#app/components/login-popup/login-host.tsx'
import { ServiceButton } from '#app/components/service-button/service-button.tsx'
import { WechatReturn } from '#app/components/wechat/wechat-return.tsx'
import { OverlayHost } from '#app/components/system-overlay/overlay-host.tsx'
import { authStore } from '#app/lib/auth-store.ts'
import { CspNonce } from '#app/lib/csp-nonce.ts'
import { reloadForChunkError } from '#app/lib/chunk-reload.ts'
import type { RootData } from '#app/lib/client-config.ts'
import { AppEvent, onAppEvent } from '#app/lib/events.ts'
import { isChunkLoadError, layoutWidth } from '#app/lib/route-rules.ts'
import { services } from '#app/lib/services-context.ts'
import { useStylePreloads } from '#app/lib/style-preloads.ts'

/**
 * Only the allow-listed client configuration leaves the server, with the operators' customer-service setting
 * (the 客服 and consult links, QR, hours, phone) in place of the configured defaults.
 */
export async function loader({ context }: Route.LoaderArgs): Promise<RootData> {
  const s = services(context)
  const service = await s.settings.service()
  return {
    client: {
      ...s.config.client,
      serviceUrl: service.service_url,
      consultUrl: service.consult_url,
      consultOnCheckout: service.consult_on_checkout,
    },
    service: { qrImage: service.qr_image, hours: service.hours, phone: service.phone },
  }
}

export function shouldRevalidate() {
  return false
}

export function links() {
  return [{ rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]
}

export function meta() {
  return [
    { title: '自学 - 软件、设计、绘画自学课程' },
    { name: 'description', content: '自学：软件、办公、绘画插画、漫画、视频剪辑和设计的自学课程。' },
  ]
}

export function Layout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  const nonce = useContext(CspNonce)
  useStylePreloads()
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#ffffff" />
        <meta name="format-detection" content="telephone=no" />
        <Meta />
        <Links />
      </head>
      <body>
        <div className="zx-app" data-width={layoutWidth(pathname)}>
          {children}
        </div>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/**
 * Browser-only start-up work of spec 4: the WeChat return, the visit's sp, chunk failures and hideLogin. (antd-mobile's
 * React 19 renderer is loaded by what shows a toast or an action sheet, when it first does: not here, where it
 * lengthened the task that runs the page's effects after hydration.)
 */
function useStartup() {
  const { search } = useLocation()

  useEffect(() => {
    authStore.rememberSp(search)
  }, [search])

  useEffect(() => {
    const onPreloadError = (event: Event) => {
      if (reloadForChunkError()) event.preventDefault()
    }
    window.addEventListener('vite:preloadError', onPreloadError)
    const offHide = onAppEvent(AppEvent.hideLogin, () => window.location.reload())
    return () => {
      window.removeEventListener('vite:preloadError', onPreloadError)
      offHide()
    }
  }, [])
}

export default function App() {
  const { client } = useLoaderData<typeof loader>()
  useStartup()
  return (
    <>
      <LoadingBar />
      <Outlet />
      <ServiceButton
        serviceUrl={client.serviceUrl}
        consultUrl={client.consultUrl}
        consultOnCheckout={client.consultOnCheckout}
      />
      <OverlayHost />
      <LoginHost />
      <WechatReturn />
      <LinkDelegation />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const chunkError = !isRouteErrorResponse(error) && isChunkLoadError(error)
  useEffect(() => {
    if (chunkError) reloadForChunkError()
  }, [chunkError])

  if (isRouteErrorResponse(error)) {
    // A loader's 404 says what is missing (课程不存在或已下架: a shared link to a course taken off sale).
    const detail =
      error.status === 404
        ? missingOf(error.data)
        : typeof error.data === 'string' && error.data
          ? error.data
          : error.statusText || undefined
    return <ErrorPage status={error.status} detail={detail} />
  }
  return <ErrorPage status={500} detail={chunkError ? '页面已更新，正在重新加载…' : '服务器开小差了，请稍后再试'} />
}
