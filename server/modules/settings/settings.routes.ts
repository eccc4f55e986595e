import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { ServiceSettings } from '#shared/api/service-settings.ts'
import type { SettingsService } from './settings.service.ts'

const ServiceSettingsResponse = envelope(ServiceSettings.extend({ updated_at: z.string().nullable() }))

/**
 * Site settings in the operators' console (under /api/admin/settings): the customer-service setting the floating
 * 客服 button, the consult button and the /customer pages show. Learners see a saved change on their next page.
 */
export const adminSettingsRoutes = adminPlugin(
  GroupAccess.storefront,
  (r, { settings }: { settings: SettingsService }) => {
    // Permission: operator (marketing).
    r.get(
      '/admin/settings/service',
      {
        summary: 'The customer-service setting (the configuration’s links until saved once; updated_at null)',
        response: ServiceSettingsResponse,
      },
      async () => settings.service(),
    )
    r.put(
      '/admin/settings/service',
      {
        summary: 'Save the customer-service setting: WeCom chat and consult links, QR image, hours, phone',
        body: ServiceSettings,
        response: ServiceSettingsResponse,
      },
      async ({ body }, staffId) => settings.saveService(staffId, body),
    )
  },
)
