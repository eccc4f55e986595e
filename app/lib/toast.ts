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

/** Shows a short message in the middle of the screen; does nothing during the server render. */
export function toast(content: string, options: ToastOptions = {}): void {
  if (typeof window === 'undefined') return
  void loadToast()
    .then((Toast) => Toast.show({ content, duration: options.duration ?? 2000, icon: options.icon }))
    .catch(() => {
      // The toast chunk itself failed to load (offline): fall back to the browser's own dialog-free hint.
      console.warn(content)
    })
}
