import { useEffect } from 'react'
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { MessageScreen } from '#app/components/message-screen/message-screen.tsx'
import { authStore } from '#app/lib/auth-store.ts'
import { isWechat } from '#app/lib/platform.ts'
import { safeReturnPath, startWechatLogin, wechatOauthUrl } from '#app/lib/wechat-login.ts'
import message from '#app/components/message-screen/message-screen.module.css'
import styles from './wechat-login.module.css'

export const NOT_IN_WECHAT = '请在微信内点击'
export const REDIRECTING = '正在跳转微信授权…'

/**
 * /wechatLogin?path=…&login1=… (spec 7): starts WeChat's user-info authorization and comes back to `path` signed
 * in. The user agent is read on the server, so the right message is in the first HTML, before any script runs.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const login1 = url.searchParams.get('login1')
  return {
    inWechat: isWechat(request.headers.get('user-agent') ?? ''),
    path: safeReturnPath(url.searchParams.get('path'), url.origin),
    login1: login1 && /^[\w-]{1,64}$/.test(login1) ? login1 : null,
  }
}

export function meta() {
  return [{ title: '微信登录 - 自学' }, { name: 'robots', content: 'noindex' }]
}

export default function WechatLogin() {
  const { inWechat, path, login1 } = useLoaderData<typeof loader>()

  useEffect(() => {
    // Signed in already (a phone login with login1): only the open id is needed, silently (base scope).
    if (inWechat) startWechatLogin(authStore.getToken() ? 'snsapi_base' : 'snsapi_userinfo', path, login1)
  }, [inWechat, path, login1])

  return (
    <MessageScreen title="微信登录">
      <svg className={styles.icon} viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="24" r="24" fill="#07c160" />
        <path
          d="M20 13c-6.1 0-11 4.1-11 9.1 0 2.8 1.5 5.3 3.9 7l-1 3.2 3.7-1.9c1.3.4 2.8.7 4.4.7h.6a8 8 0 0 1-.3-2.2c0-5 4.7-9 10.5-9h.6C30.4 15.9 25.7 13 20 13Z"
          fill="#fff"
        />
        <path
          d="M39 28.9c0-4.2-4.1-7.5-9.1-7.5s-9.1 3.3-9.1 7.5 4.1 7.5 9.1 7.5c1 0 2-.1 3-.4l3 1.6-.8-2.7c2.4-1.4 3.9-3.6 3.9-6Z"
          fill="#fff"
        />
      </svg>
      {inWechat ? (
        <>
          <p className="zx-title" role="status">
            {REDIRECTING}
          </p>
          <a
            className={`${message.secondary} ${styles.quietAction}`}
            href={wechatOauthUrl('snsapi_userinfo', path, login1)}
          >
            没有跳转？点这里继续
          </a>
        </>
      ) : (
        <>
          <p className="zx-title">{NOT_IN_WECHAT}</p>
          <p className={message.text}>微信登录只能在微信里打开本页面时使用；在其他浏览器里请用手机号登录。</p>
          <Link className={`${message.primary} ${styles.action}`} to="/">
            返回首页
          </Link>
        </>
      )}
    </MessageScreen>
  )
}
