import { ServiceButton } from '#app/components/service-button/service-button.tsx'
import { OverlayHost } from '#app/components/system-overlay/overlay-host.tsx'
import { WechatHost } from '#app/components/wechat/wechat-host.tsx'

/**
 * The shell's hosts that need nothing before the page is interactive: the floating service and consult buttons,
 * the system notices and the WeChat return. The root loads this module lazily (issue 11 §4: first-load JS); the
 * server renders it in place, and the browser keeps that HTML until the module arrives and hydrates it.
 */
export default function ShellHosts({
  serviceUrl,
  consultUrl,
  consultOnCheckout,
  consult,
}: {
  serviceUrl: string
  consultUrl: string
  consultOnCheckout: boolean
  consult: boolean
}) {
  return (
    <>
      <ServiceButton
        serviceUrl={serviceUrl}
        consultUrl={consultUrl}
        consultOnCheckout={consultOnCheckout}
        consult={consult}
      />
      <OverlayHost />
      <WechatHost />
    </>
  )
}
