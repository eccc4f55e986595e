import { useRouteLoaderData } from 'react-router'
import type { Config } from '#server/config.ts'

/** What the server lets the browser know of its configuration (server/config.ts `client`, an allow-list). */
export type ClientConfig = Config['client']

/** What the customer-service pages show besides the links (the operators' setting). */
export interface ServiceContact {
  qrImage: string | null
  hours: string
  phone: string
}

export interface RootData {
  client: ClientConfig
  service: ServiceContact
}

/** The client configuration from the root loader, for any component. */
export function useClientConfig(): ClientConfig | null {
  return useRouteLoaderData<RootData>('root')?.client ?? null
}

/** The operators' customer-service setting (QR, hours, phone) from the root loader. */
export function useServiceContact(): ServiceContact | null {
  return useRouteLoaderData<RootData>('root')?.service ?? null
}
