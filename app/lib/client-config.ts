import { useRouteLoaderData } from 'react-router'
import type { Config } from '#server/config.ts'

/** What the server lets the browser know of its configuration (server/config.ts `client`, an allow-list). */
export type ClientConfig = Config['client']

export interface RootData {
  client: ClientConfig
}

/** The client configuration from the root loader, for any component. */
export function useClientConfig(): ClientConfig | null {
  return useRouteLoaderData<RootData>('root')?.client ?? null
}
