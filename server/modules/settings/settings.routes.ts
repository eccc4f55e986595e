import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { adminPlugin, apiPlugin, GroupAccess, type Routes } from '#server/http/route.ts'
import { OverlayCapsSettings } from '#shared/api/admin-overlays.ts'
import { ServiceSettings } from '#shared/api/service-settings.ts'
import type { SettingsService } from './settings.service.ts'

type Schema = z.ZodObject<z.ZodRawShape>

/** GET and PUT of one setting: it as saved (`updated_at` null until saved once), and saving it whole. */
function settingRoutes<S extends Schema>(
  r: Routes<'staff'>,
  url: string,
  schema: S,
  summaries: { get: string; put: string },
  get: () => Promise<z.output<S> & { updated_at: string | null }>,
  save: (staffId: number, value: z.output<S>) => Promise<z.output<S> & { updated_at: string | null }>,
) {
  const response = envelope(schema.extend({ updated_at: z.string().nullable() }))
  r.get(url, { summary: summaries.get, response }, async () => get() as never)
  r.put(
    url,
    { summary: summaries.put, body: schema, response },
    async ({ body }, staffId) => save(staffId, body as z.output<S>) as never,
  )
}

/** A QR page's code and sentence, as operators configured them (image null: none set yet). */
const QrSetting = z.object({
  qr_image: z.string().nullable().describe('The QR image address; null when operators have not uploaded one'),
  text: z.string(),
})

/** The learner pages' reads of site settings: /data/wwx's WeCom contact QR (spec 7: GET /contact/qrcode). */
export const settingsRoutes = apiPlugin(
  { tags: ['settings'], token: false },
  (r, { settings }: { settings: SettingsService }) => {
    r.get(
      '/contact/qrcode',
      {
        summary: 'The staff WeCom contact QR and its sentence (/data/wwx), as operators set them',
        response: envelope(QrSetting),
      },
      async () => settings.contactQr(),
    )
  },
)

/**
 * Site settings in the operators' console (under /api/admin/settings): the customer-service setting the floating
 * 客服 button, the consult button and the /customer pages show, and the overlays' frequency caps. Learners see a
 * saved change on their next page.
 */
export const adminSettingsRoutes = adminPlugin(
  GroupAccess.storefront,
  (r, { settings }: { settings: SettingsService }) => {
    // Permission: operator (marketing).
    settingRoutes(
      r,
      '/admin/settings/service',
      ServiceSettings,
      {
        get: 'The customer-service setting (the configuration’s links until saved once; updated_at null)',
        put: 'Save the customer-service setting: WeCom chat and consult links, QR image, hours, phone',
      },
      settings.service,
      settings.saveService,
    )
    settingRoutes(
      r,
      '/admin/settings/overlay-caps',
      OverlayCapsSettings,
      {
        get: 'How often learners may see overlays: per page view, per session, urgent ones, days once seen',
        put: 'Save the overlay caps (within bounds); GET /systemOverlay sends them to learners at once',
      },
      settings.overlayCaps,
      settings.saveOverlayCaps,
    )
  },
)
