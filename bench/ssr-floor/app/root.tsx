import { useContext, type ReactNode } from 'react'
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { CspNonce } from '#app/lib/csp-nonce.ts'
import { services } from '#app/lib/services-context.ts'
import { HeadsetIcon } from './icons.tsx'

/** The same read as the app's root: the operators' customer-service setting. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { service_url, hours, phone } = await services(context).settings.service()
  return { serviceUrl: service_url, hours, phone }
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useContext(CspNonce)
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function Root() {
  const { serviceUrl, hours } = useLoaderData<typeof loader>()
  return (
    <>
      <Outlet />
      <a href={serviceUrl} title={hours}>
        <HeadsetIcon />
        客服
      </a>
    </>
  )
}
