import { createContext, type RouterContextProvider } from 'react-router'
import type { PageServices } from '#server/page-services.ts'
import type { PageViewer } from '#server/http/session-cookie.ts'

/**
 * The server's read services (server/page-services.ts: no database handle, no secrets), handed to loaders and
 * actions by the request handler (server/http/web.ts), so a page reads the same functions the API serves without
 * a second HTTP hop.
 */
export const servicesContext = createContext<PageServices>()

export function services(context: Readonly<RouterContextProvider>): PageServices {
  return context.get(servicesContext)
}

/** Who the page is for: the member of the session cookie, on page GETs only (server/http/session-cookie.ts). */
export const viewerContext = createContext<PageViewer>()

/** A member page's data read by the server, with the mark of the token it was read for (useServerData). */
export interface ServerData<T> {
  mark: string
  data: T
}

/**
 * The loader of a member page (docs/decisions/2026-11-26-member-session-cookie.md): when the request carries the
 * session cookie of a live session, `read` gets the member's data straight from the services; otherwise null, and
 * the page asks the API in the browser as before.
 */
export async function memberData<T>(
  context: Readonly<RouterContextProvider>,
  read: (s: PageServices['member'], memberId: number) => Promise<T>,
): Promise<ServerData<T> | null> {
  const member = await context.get(viewerContext).member()
  return member ? { mark: member.mark, data: await read(services(context).member, member.memberId) } : null
}
