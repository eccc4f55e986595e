import { OverlayHost } from '#app/components/system-overlay/overlay-host.tsx'
import { WechatHost } from '#app/components/wechat/wechat-host.tsx'

/**
 * The shell's hosts that draw nothing until an effect has run: the system notices and the WeChat return. The root
 * loads this module lazily, after hydration (issue 11 §4: first-load JS).
 */
export default function ShellHosts() {
  return (
    <>
      <OverlayHost />
      <WechatHost />
    </>
  )
}
