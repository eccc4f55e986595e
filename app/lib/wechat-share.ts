import { useEffect } from 'react'
import { authStore } from './auth-store.ts'
import { useClientConfig } from './client-config.ts'
import { inWechat } from './platform.ts'

/** The card a page shows when shared from WeChat (issue 10 §3). */
export interface ShareCard {
  title: string
  desc: string
  /** An absolute or site-relative image address; the site's icon when missing. */
  imgUrl?: string | null
}

/**
 * The address a shared card opens: this page without WeChat's one-time parameters and fragment, carrying the
 * sharer's promotion source `sp` (spec 2): the signed-in member's id, else the `sp` this visit came with, so a
 * chain of shares keeps its origin.
 */
export function shareLink(href: string, memberId: number | null, visitSp: string | null): string {
  const url = new URL(href)
  for (const p of ['code', 'state', 'loginCallback', 'login1']) url.searchParams.delete(p)
  const sp = memberId ? String(memberId) : visitSp
  if (sp) url.searchParams.set('sp', sp)
  url.hash = ''
  return url.toString()
}

/**
 * Sets the page's WeChat share card: inside WeChat only, the JS-SDK and this code's second half are loaded on
 * demand (wechat-share-sdk.ts), so pages outside WeChat carry nothing more than this hook. `card` null: nothing yet.
 */
export function useWechatShare(card: ShareCard | null): void {
  const sdkUrl = useClientConfig()?.wechatJsSdk
  const title = card?.title
  const desc = card?.desc
  const imgUrl = card?.imgUrl
  useEffect(() => {
    if (!sdkUrl || title === undefined || desc === undefined || !inWechat()) return
    const page = window.location.href
    const memberId = authStore.getUser()?.member_id
    const link = shareLink(page, typeof memberId === 'number' ? memberId : null, authStore.getSp())
    const image = new URL(imgUrl || '/favicon.svg', window.location.origin).toString()
    void import('./wechat-share-sdk.ts').then((m) =>
      m.setShareCard({ sdkUrl, page, card: { title, desc, link, imgUrl: image } }),
    )
  }, [sdkUrl, title, desc, imgUrl])
}
