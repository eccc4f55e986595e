import { createContext, type RouterContextProvider } from 'react-router'
import type { Services } from '#server/services.ts'

/**
 * The server's services, handed to loaders and actions by the request handler (server/http/web.ts), so a page
 * reads the same functions the API serves without a second HTTP hop.
 */
export const servicesContext = createContext<Services>()

export function services(context: Readonly<RouterContextProvider>): Services {
  return context.get(servicesContext)
}
