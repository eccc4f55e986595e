import type { Db } from '#server/db/database.ts'
import { invalidate, publicCache } from '#server/http/public-cache.ts'
import { ServiceSettings } from '#shared/api/service-settings.ts'
import { findSetting, saveSetting } from './settings.repository.ts'

const SERVICE = 'service'
const TAG = 'settings:service'

/** What the configuration says until operators save the setting (SERVICE_URL, CONSULT_URL, CONSULT_ON_CHECKOUT). */
export interface ServiceDefaults {
  serviceUrl: string
  consultUrl: string
  consultOnCheckout: boolean
}

/**
 * Site settings operators edit in the console. The customer-service setting is read on every page (the root
 * loader), so it is cached; saving it drops the cached copy here and in every other process (`invalidate`).
 */
export function createSettingsService(deps: { db: Db; now: () => Date; defaults: ServiceDefaults; ttlMs: number }) {
  const { db, now, defaults } = deps
  const fallback: Required<ServiceSettings> = {
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
  }
  async function load(): Promise<Required<ServiceSettings> & { updated_at: string | null }> {
    const row = await findSetting(db, SERVICE)
    // A saved value older than a field added later still reads: missing fields come from the defaults.
    const parsed = row ? ServiceSettings.safeParse({ ...fallback, ...row.value }) : null
    return parsed?.success
      ? { ...fallback, ...parsed.data, updated_at: row!.updatedAt.toISOString() }
      : { ...fallback, updated_at: null }
  }
  const cache = publicCache({ max: 1, ttlMs: deps.ttlMs, load: (_: 'service') => load(), tagsOf: () => [TAG] })
  return {
    /** The customer-service setting (cached; the configuration's links until operators save one). */
    service: () => cache.get('service'),
    /** GET /contact/qrcode: the staff WeCom contact QR and its sentence (/data/wwx). */
    async contactQr() {
      const s = await cache.get('service')
      return { qr_image: s.wwx_qr_image, text: s.wwx_text }
    },
    /** The Official Account's follow QR and its sentence (/data/follow, with GET /wechat/subscribe). */
    async followQr() {
      const s = await cache.get('service')
      return { qr_image: s.follow_qr_image, text: s.follow_text }
    },
    /** Operators save the customer-service setting; learners' next page shows it. */
    async saveService(staffId: number, value: ServiceSettings) {
      // Fields a form does not send (the QR pages' ones, for an older console) keep what was saved.
      const { updated_at: _, ...current } = await load()
      await saveSetting(db, SERVICE, { ...current, ...value }, staffId, now())
      await invalidate(db, [TAG])
      return cache.get('service')
    },
  }
}

export type SettingsService = ReturnType<typeof createSettingsService>
