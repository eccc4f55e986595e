import { api } from './api.ts'

/**
 * The WeChat half of sharing (loaded only inside WeChat, by wechat-share.ts): GET /wechat/share signs this page's
 * address, the JS-SDK is loaded once, and `wx.config` then the two share calls of JS-SDK 1.4+
 * (`updateAppMessageShareData` for chats, `updateTimelineShareData` for Moments) set the card. A failed signature
 * request is only logged as "请求错误" (spec 8). Read in WeChat's JS-SDK documentation: the signed URL is the page
 * address without `#…`, the link's domain must be a JS-safe domain of the Official Account. Not confirmed there:
 * whether `wx.config` may be called again on the same document after a client-side navigation (we call it again
 * for each page, which community reports say works) and whether Moments shows `desc` (it does not appear to).
 */

interface Wx {
  config(c: Record<string, unknown>): void
  ready(f: () => void): void
  error(f: (res: { errMsg?: string }) => void): void
  updateAppMessageShareData(o: Record<string, unknown>): void
  updateTimelineShareData(o: Record<string, unknown>): void
}

interface Signature {
  appId: string
  timestamp: number
  nonceStr: string
  signature: string
}

let loading: Promise<Wx> | undefined

function loadSdk(src: string): Promise<Wx> {
  loading ??= new Promise<Wx>((resolve, reject) => {
    const existing = (window as unknown as { wx?: Wx }).wx
    if (existing) return resolve(existing)
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.onload = () => {
      const wx = (window as unknown as { wx?: Wx }).wx
      if (wx) resolve(wx)
      else reject(new Error('no wx'))
    }
    script.onerror = () => reject(new Error('JS-SDK failed to load'))
    document.head.appendChild(script)
  }).catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

export async function setShareCard(input: {
  sdkUrl: string
  page: string
  card: { title: string; desc: string; link: string; imgUrl: string }
}): Promise<boolean> {
  let signature: Signature
  try {
    signature = await api.get<Signature>('/wechat/share', { url: input.page.split('#')[0] }, { quiet: true })
  } catch {
    console.log('请求错误')
    return false
  }
  let wx: Wx
  try {
    wx = await loadSdk(input.sdkUrl)
  } catch {
    console.log('请求错误')
    return false
  }
  const jsApiList = ['updateAppMessageShareData', 'updateTimelineShareData']
  wx.config({ debug: false, ...signature, jsApiList })
  return new Promise((resolve) => {
    wx.error(() => {
      console.log('请求错误')
      resolve(false)
    })
    wx.ready(() => {
      const { title, desc, link, imgUrl } = input.card
      wx.updateAppMessageShareData({ title, desc, link, imgUrl })
      wx.updateTimelineShareData({ title, link, imgUrl })
      resolve(true)
    })
  })
}
