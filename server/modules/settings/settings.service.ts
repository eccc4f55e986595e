import type { z } from 'zod'
import type { Db } from '#server/db/database.ts'
import { invalidate, publicCache } from '#server/http/public-cache.ts'
import { OverlayCapsSettings } from '#shared/api/admin-overlays.ts'
import { ServiceSettings } from '#shared/api/service-settings.ts'
import { DEFAULT_OVERLAY_CAPS } from '#shared/overlay-caps.ts'
import { findSetting, saveSetting } from './settings.repository.ts'

/** What the configuration says until operators save the setting (SERVICE_URL, CONSULT_URL, CONSULT_ON_CHECKOUT). */
export interface ServiceDefaults {
  serviceUrl: string
  consultUrl: string
  consultOnCheckout: boolean
}

type Saved<T> = T & { updated_at: string | null }

/**
 * One setting (a row of site_settings under `key`): read through a cache, since learners' pages read it on every
 * request; saving it drops the cached copy here and in every other process (`invalidate`).
 */
function siteSetting<S extends z.ZodType<Record<string, unknown>>>(
  deps: { db: Db; now: () => Date; ttlMs: number },
  key: string,
  schema: S,
  fallback: z.output<S>,
) {
  const { db, now } = deps
  const tag = `settings:${key}`
  async function load(): Promise<Saved<z.output<S>>> {
    const row = await findSetting(db, key)
    // A saved value older than a field added later still reads: missing fields come from the defaults.
    const parsed = row ? schema.safeParse({ ...fallback, ...row.value }) : null
    return parsed?.success
      ? { ...parsed.data, updated_at: row!.updatedAt.toISOString() }
      : { ...fallback, updated_at: null }
  }
  const cache = publicCache({ max: 1, ttlMs: deps.ttlMs, load: (_: 'value') => load(), tagsOf: () => [tag] })
  return {
    get: () => cache.get('value'),
    /** Fields a form does not send (an older console's) keep what was saved. */
    save: async (staffId: number, value: z.output<S>) => {
      const { updated_at: _, ...current } = await load()
      await saveSetting(db, key, { ...current, ...value }, staffId, now())
      await invalidate(db, [tag])
      return cache.get('value')
    },
  }
}

/**
 * Site settings operators edit in the console: customer service (the floating 客服 button, the consult button and
 * the /customer pages; read by the root loader) and the overlays' frequency caps (sent with GET /systemOverlay).
 */
export function createSettingsService(deps: { db: Db; now: () => Date; defaults: ServiceDefaults; ttlMs: number }) {
  const { defaults } = deps
  const service = siteSetting(deps, 'service', ServiceSettings, {
    service_url: defaults.serviceUrl,
    consult_url: defaults.consultUrl,
    consult_on_checkout: defaults.consultOnCheckout,
    qr_image: null,
    hours: '',
    phone: '',
    follow_qr_image: null,
    follow_text: '关注公众号，及时收到课程更新、直播提醒和学习资料。',
    wwx_qr_image: null,
    wwx_text: '添加老师企业微信，领取学习资料，有问题随时问。',
  })
  const overlayCaps = siteSetting(deps, 'overlay-caps', OverlayCapsSettings, DEFAULT_OVERLAY_CAPS)
  return {
    /** The customer-service setting (cached; the configuration's links until operators save one). */
    service: service.get,
    /** Operators save the customer-service setting; learners' next page shows it. */
    saveService: service.save,
    /** GET /contact/qrcode: the staff WeCom contact QR and its sentence (/data/wwx). */
    async contactQr() {
      const s = await service.get()
      return { qr_image: s.wwx_qr_image ?? null, text: s.wwx_text ?? '' }
    },
    /** The Official Account's follow QR and its sentence (/data/follow, with GET /wechat/subscribe). */
    async followQr() {
      const s = await service.get()
      return { qr_image: s.follow_qr_image ?? null, text: s.follow_text ?? '' }
    },
    /** How often learners may see overlays (cached; issue 10 §4's caps until operators save their own). */
    overlayCaps: overlayCaps.get,
    /** Operators save the overlay caps; learners' next page applies them. */
    saveOverlayCaps: overlayCaps.save,
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>
