import { can, type Permission, type StaffPrincipal } from './roles.ts'

/**
 * The parts of the console's dashboard and the permissions that open each (any one of them): the server computes
 * and answers only the parts the viewer's roles open, the console draws what it is given. A teacher sees how
 * learners watch and which transcodes failed, never money; finance sees money and refunds.
 */
const DashboardParts = {
  /** Revenue by kind and payment method, paid orders, refunds, net, the top courses by sales. */
  sales: ['sales.read'],
  /** New members and the points given and taken. */
  members: ['members.read'],
  /** Active learners and plays. */
  learning: ['members.read', 'catalogue.read'],
  /** Refunds waiting for a decision or failed at the provider. */
  refunds: ['refunds.read'],
  /** Videos whose transcode failed. */
  media: ['catalogue.read'],
} as const satisfies Record<string, readonly Permission[]>

export type DashboardPart = keyof typeof DashboardParts
export const dashboardPartNames = Object.keys(DashboardParts) as DashboardPart[]

/** The dashboard's parts this principal may see. */
export function dashboardParts(principal: StaffPrincipal | null | undefined): DashboardPart[] {
  return dashboardPartNames.filter((part) => DashboardParts[part].some((p) => can(principal, p)))
}
