import { useEffect, useState, type ComponentType } from 'react'
import { replayLoginToast } from '#app/lib/login-toast.ts'

/** Whether a page address is a return from WeChat's authorization (it carries our `loginCallback` flag). */
function isWechatReturn(search: string): boolean {
  return new URLSearchParams(search).has('loginCallback')
}

/**
 * The WeChat part of start-up (spec 4, issue 10 §3): "登录成功！" again when the page comes back from a login that
 * reloaded or left, and, only when the address is a return from WeChat's authorization, the code that finishes it
 * (wechat-host.tsx: the sign-in, the open id, the snapshot page), in its own chunk: most page loads are not a
 * return (issue 11 §4).
 */
export function WechatReturn() {
  const [host, setHost] = useState<{ Host: ComponentType<{ replayed: boolean }>; replayed: boolean } | null>(null)

  useEffect(() => {
    const replayed = replayLoginToast()
    if (!isWechatReturn(window.location.search)) return
    void import('./wechat-host.tsx').then((m) => setHost({ Host: m.default, replayed }))
  }, [])

  return host ? <host.Host replayed={host.replayed} /> : null
}
