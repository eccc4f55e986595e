import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { OverlayStates } from '#shared/api/admin-overlays.ts'

/** The jump parameters of spec 3; which ones are set depends on so_jump_type. */
const OverlayJumpParams = z.object({
  course_type: z.string().optional(),
  course_id: z.number().int().optional(),
  course_vid: z.number().int().optional(),
  selected: z.number().int().optional().describe('Category id (jump type 2)'),
  type: z.union([z.string(), z.number()]).optional(),
  url: z.string().optional().describe('http(s) URL (jump type 4)'),
})

export const Overlay = z.object({
  so_id: z.number().int(),
  so_type: z.number().int().describe('1 text notice, 2 image'),
  so_name: z.string(),
  so_content: z.string().describe('Sanitised HTML (p, br, b, strong, i, em, span, a, img only)'),
  so_btn: z.string(),
  so_image: z.string().nullable(),
  so_jump_type: z.number().int().nullable().describe('1 course, 2 category, 4 custom URL; null: no jump'),
  so_jump_params: OverlayJumpParams,
  so_urgent: z
    .boolean()
    .describe('Set by the operator: shown even when another overlay was shown this session (still one per page)'),
})
export type Overlay = z.infer<typeof Overlay>

/** How often a learner may see overlays (shared/overlay-caps.ts; operators set them in the console). */
const OverlayCapsView = z.object({
  per_page: z.number().int().describe('Overlays one page view may show, one after another'),
  per_session: z.number().int().describe('Overlays one browser session may show'),
  urgent_exempt: z.boolean().describe('Urgent overlays show past the session’s cap'),
  seen_days: z.number().int().describe('Days an overlay stays away once seen (its so_seen_<id> cookie)'),
})

export const OverlayListResponse = envelope(z.object({ list: z.array(Overlay), caps: OverlayCapsView }))

export const OverlayClickBody = z.object({
  so_id: z.union([
    z.number().int().min(1).max(2_147_483_647),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/)
      .transform(Number),
  ]),
})

/** An overlay as operators see it: its fields, its state now, its taps, and `preview` as learners receive it. */
export const StaffOverlay = z.object({
  id: z.number().int(),
  type: z.number().int(),
  name: z.string(),
  content: z.string(),
  button_text: z.string(),
  image_url: z.string().nullable(),
  jump: z.object({
    jump_type: z.number().int().nullable(),
    course_id: z.number().int().optional(),
    category_id: z.number().int().optional(),
    url: z.string().optional(),
  }),
  active: z.boolean(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  sort: z.number().int(),
  urgent: z.boolean(),
  state: z.enum(OverlayStates),
  clicks: z.number().int(),
  preview: Overlay,
})
export type StaffOverlay = z.infer<typeof StaffOverlay>
export const OverlayPreviewResponse = envelope(Overlay)
