import { createContext, type RouterContextProvider } from 'react-router'
import type { PageServices } from '#server/page-services.ts'

/**
 * The server's read services (server/page-services.ts: no database handle, no secrets), handed to loaders and
 * actions by the request handler (server/http/web.ts), so a page reads the same functions the API serves without
 * a second HTTP hop.
 */
export const servicesContext = createContext<PageServices>()

export function services(context: Readonly<RouterContextProvider>): PageServices {
  return context.get(servicesContext)
}
