import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { PathId as id } from '#shared/api/params.ts'

export const PlayQuery = z.object({ vid: id.describe('The video id') })

export const PlayResponse = envelope(
  z.object({
    vid: z.number().int(),
    master_url: z
      .string()
      .describe('Signed URL of the HLS master playlist (same origin). Give it to hls.js, or as <video src> on iOS.'),
    expires_at: z
      .number()
      .int()
      .describe('Unix seconds after which every URL of this playback stops working: ask again'),
    until_second: z.number().int().nullable().describe('Null: the whole video. A number: the free preview ends there'),
    reason: z.enum(['free_course', 'free_video', 'entitled', 'preview']),
    duration: z.number().describe('Seconds'),
    poster_url: z.string().nullable(),
  }),
)

/** The signature every playlist, segment and key URL carries (see signing.ts). Missing or wrong: 403. */
export const SignedQuery = z.object({
  mid: z.string().max(12).optional().describe('Member id the URL was signed for; 0 for anonymous'),
  exp: z.string().max(12).optional().describe('Unix seconds when the URL stops working'),
  lim: z.string().max(12).optional().describe('Preview end in seconds; absent for full access'),
  sig: z.string().max(100).optional().describe('HMAC-SHA256 of the above, base64url'),
})

export const KeyQuery = SignedQuery.extend({ vid: id })

export const MasterParams = z.object({ videoId: id })
export const VariantParams = z.object({ videoId: id, rendition: z.string().max(32) })
export const SegmentParams = VariantParams.extend({ segment: z.string().max(64) })
