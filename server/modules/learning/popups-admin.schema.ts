import { z } from 'zod'
import { PopupTargets } from '#shared/api/admin-popups.ts'
import { PlayerPopup } from './learning.schema.ts'

/** A player popup as operators see it: its fields, where it shows, its taps, and `preview` as the player gets it. */
export const StaffPopup = z.object({
  id: z.number().int(),
  target: z.enum(PopupTargets),
  target_id: z.number().int(),
  target_title: z.string().describe('The course’s or the video’s title'),
  at_second: z.number().int(),
  title: z.string(),
  content: z.string(),
  image_url: z.string().nullable(),
  link: z.string().nullable(),
  active: z.boolean(),
  clicks: z.number().int(),
  created_at: z.string(),
  preview: PlayerPopup,
})
export type StaffPopup = z.infer<typeof StaffPopup>
