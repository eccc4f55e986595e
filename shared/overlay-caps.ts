// How often learners may see system overlays (issue 10 §4's frequency caps), an operator setting since issue 13:
// the learner endpoint GET /api/systemOverlay sends them with the list, app/lib/overlay-rules.ts applies them. No zod
// here: the learner pages read this file.

export interface OverlayCaps {
  /** How many overlays one page view may show, one after another (closing one opens the next). */
  per_page: number
  /** How many overlays one browser session may show. */
  per_session: number
  /** Urgent overlays show even past the session's cap (still within the page's). */
  urgent_exempt: boolean
  /** How many days an overlay stays away once a learner has seen it. */
  seen_days: number
}

/** The caps until operators save their own (issue 10 §4: one per page, one per session unless urgent, 30 days). */
export const DEFAULT_OVERLAY_CAPS: OverlayCaps = { per_page: 1, per_session: 1, urgent_exempt: true, seen_days: 30 }

/** The bounds operators may set: more would stack notices over the pages learners came for. */
export const OVERLAY_CAP_BOUNDS = {
  per_page: { min: 1, max: 3 },
  per_session: { min: 1, max: 10 },
  seen_days: { min: 1, max: 365 },
} as const
