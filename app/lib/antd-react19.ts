import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render'
import { createRoot, type Root } from 'react-dom/client'

let enabled = false

/**
 * Lets antd-mobile's imperative APIs (Toast.show, Dialog.alert, Modal.show) render on React 19. Import this
 * module before the first such call; calling it again changes nothing.
 */
export function enableAntdImperativeRender(): void {
  if (enabled) return
  enabled = true
  unstableSetRender((node, container) => {
    const host = container as Element & { __zxRoot?: Root }
    host.__zxRoot ??= createRoot(container)
    const root = host.__zxRoot
    root.render(node)
    return async () => {
      // Unmounting synchronously inside React's own commit would warn; wait a tick as antd-mobile's guide does.
      await new Promise((resolve) => setTimeout(resolve, 0))
      root.unmount()
      delete host.__zxRoot
    }
  })
}
