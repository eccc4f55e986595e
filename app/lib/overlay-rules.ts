/**
 * The system notices' rules (spec 3 and 9, issue 10 §4), used once a page has notices to show: apart from
 * route-rules.ts (which decides where notices are fetched) so that they load with the notice, not with every page
 * (issue 11 §4). Pure functions, tested from tables in route-rules.test.ts.
 */

import { DEFAULT_OVERLAY_CAPS, type OverlayCaps } from '#shared/overlay-caps.ts'

/**
 * Frequency caps (issue 10 §4; operators set them, shared/overlay-caps.ts), so a learner is never stacked: at most
 * `per_page` overlays per page view, one after another, and `per_session` per browser session unless the operator
 * marked one urgent (when `urgent_exempt`). Of the unseen overlays (in the operator's order) this picks the one to
 * show now, or null.
 */
export function overlayToShow<T extends { so_urgent?: boolean }>(
  unseen: readonly T[],
  shown: { page: number; session: number },
  caps: OverlayCaps = DEFAULT_OVERLAY_CAPS,
): T | null {
  if (shown.page >= caps.per_page) return null
  if (shown.session < caps.per_session) return unseen[0] ?? null
  return caps.urgent_exempt ? (unseen.find((o) => o.so_urgent === true) ?? null) : null
}

/**
 * Where an overlay's button or image leads (spec 3 so_jump_type): 1 a course, 2 a category, 4 a custom URL
 * (http and https only, so a notice can never run script). Anything else leads nowhere.
 */
export function overlayJumpHref(
  jumpType: number | null | undefined,
  params: Readonly<Record<string, unknown>> | null | undefined,
): string | null {
  const p = params ?? {}
  const str = (v: unknown) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '')
  switch (jumpType) {
    case 1: {
      const id = str(p.course_id)
      return /^\d+$/.test(id) ? `/course/${id}.html` : null
    }
    case 2: {
      const cate = str(p.selected) || str(p.cate_id) || str(p.type)
      return /^\d+$/.test(cate) ? `/boutique?cate=${cate}` : '/boutique'
    }
    case 4: {
      const url = str(p.url)
      try {
        const parsed = new URL(url)
        return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null
      } catch {
        return null
      }
    }
    default:
      return null
  }
}
