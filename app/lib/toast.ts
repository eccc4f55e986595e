import { createElement, type ReactNode } from 'react'

/**
 * Toasts through antd-mobile's Toast, loaded on first use so pages that never toast do not carry it. antd-mobile 5
 * renders its imperative components with ReactDOM.render, which React 19 removed; `unstableSetRender` hands it
 * createRoot instead (https://mobile.ant.design/guide/v5-for-19).
 */
type ToastModule = typeof import('antd-mobile/es/components/toast')

let loading: Promise<ToastModule['default']> | undefined

function loadToast(): Promise<ToastModule['default']> {
  loading ??= Promise.all([import('antd-mobile/es/components/toast'), import('./antd-react19.ts')]).then(
    ([m, setup]) => {
      setup.enableAntdImperativeRender()
      return m.default
    },
  )
  return loading
}

export interface ToastOptions {
  /** Milliseconds; 2000 by default. */
  duration?: number
  icon?: 'success' | 'fail' | 'loading'
}

/** Numbers as a message carries them: phone numbers (masked too: 152****7361), codes, amounts (¥1,280.00). */
const NUMBER = /[0-9*][0-9*.,:-]{3,}[0-9*]/g

/**
 * The message with its numbers kept whole: antd-mobile's toast breaks words anywhere (word-break: break-all), which
 * cut "152****7361" over two lines at 390 px; each number is a span that does not wrap.
 */
export function unbrokenNumbers(content: string): ReactNode {
  const parts: ReactNode[] = []
  let last = 0
  for (const m of content.matchAll(NUMBER)) {
    if (m.index > last) parts.push(content.slice(last, m.index))
    parts.push(createElement('span', { key: m.index, style: { whiteSpace: 'nowrap' } }, m[0]))
    last = m.index + m[0].length
  }
  if (parts.length === 0) return content
  if (last < content.length) parts.push(content.slice(last))
  return parts
}

/** Shows a short message in the middle of the screen; does nothing during the server render. */
export function toast(content: string, options: ToastOptions = {}): void {
  if (typeof window === 'undefined') return
  void loadToast()
    .then((Toast) =>
      Toast.show({ content: unbrokenNumbers(content), duration: options.duration ?? 2000, icon: options.icon }),
    )
    .catch(() => {
      // The toast chunk itself failed to load (offline): fall back to the browser's own dialog-free hint.
      console.warn(content)
    })
}
