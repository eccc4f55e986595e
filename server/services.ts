import path from 'node:path'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import { localStorage } from '#server/integrations/storage/local.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { createSmsProvider } from '#server/integrations/sms/provider.ts'
import type { SmsProvider } from '#server/integrations/sms/sms.ts'
import type { WechatClient } from '#server/integrations/wechat/wechat-client.ts'
import { createWechatHttpClient } from '#server/integrations/wechat/wechat-http-client.ts'
import { createAdminService } from '#server/modules/admin/admin.service.ts'
import { createAuthService } from '#server/modules/auth/auth.service.ts'
import { createCatalogueService } from '#server/modules/catalogue/catalogue.service.ts'
import { canWatch } from '#server/modules/entitlement/entitlement.service.ts'
import { createHomeService } from '#server/modules/home/home.service.ts'
import { createMediaService } from '#server/modules/media/media.service.ts'
import { localMediaStorage } from '#server/modules/media/media.storage.ts'
import { createPlaybackService } from '#server/modules/media/playback.service.ts'
import { resolveSigningSecret } from '#server/modules/media/signing.ts'
import { createVideoMediaService } from '#server/modules/media/video-media.service.ts'
import { createMembersService } from '#server/modules/members/members.service.ts'
import { createOverlayService } from '#server/modules/overlays/overlays.service.ts'
import { createVipService } from '#server/modules/vip/vip.service.ts'
import { createWechatService } from '#server/modules/wechat/wechat.service.ts'

/** Outside systems and the clock, passed in so tests and the demo can put simulators in their place. */
export interface Integrations {
  now: () => Date
  /** WeChat OAuth and JS-SDK: the real adapter, against api.weixin.qq.com or the local simulator. */
  wechat: WechatClient
  /** SMS codes: console (development, demo), Aliyun or Tencent, as SMS_PROVIDER says. */
  sms: SmsProvider
  /** Files: public (served at /media/) and private (video sources, encrypted HLS; signed access only). */
  storage: MediaStores
}

export function defaultIntegrations(config: Config): Integrations {
  const now = () => new Date()
  return {
    now,
    sms: createSmsProvider(config),
    wechat: createWechatHttpClient({ apiBase: config.wechat.apiBase, appId: config.wechat.appId, appSecret: config.wechat.appSecret, now }),
    storage: {
      public: localStorage({ root: config.mediaDir, publicPrefix: '/media/' }),
      private: localStorage({ root: config.media.privateDir, publicPrefix: null }),
    },
  }
}

/**
 * The services every route and page use. Each domain adds its own here; routes and loaders reach them through
 * this object, never by importing repositories.
 */
export function createServices(config: Config, db: Db, integrations: Integrations) {
  const videoMedia = createVideoMediaService({
    db,
    stores: integrations.storage,
    settings: {
      ffmpegPath: config.media.ffmpegPath,
      ffprobePath: config.media.ffprobePath,
      preset: config.media.transcodePreset,
      workDir: path.join(config.dataDir, 'work'),
      uploadMaxBytes: config.media.uploadMaxBytes,
    },
    now: integrations.now,
  })
  const media = createMediaService({ db, storage: localMediaStorage(config.mediaDir), now: integrations.now, publicUrl: config.publicUrl })
  return {
    config,
    db,
    now: integrations.now,
    wechat: createWechatService({ db, config, wechat: integrations.wechat, now: integrations.now }),
    auth: createAuthService({ config, db, sms: integrations.sms, now: integrations.now }),
    members: createMembersService({ db, now: integrations.now, media }),
    media,
    catalogue: createCatalogueService({ db, now: integrations.now }),
    home: createHomeService({ db }),
    overlays: createOverlayService({ db, now: integrations.now }),
    vip: createVipService({ db }),
    storage: integrations.storage,
    videoMedia,
    playback: createPlaybackService({
      db,
      stores: integrations.storage,
      secret: resolveSigningSecret(config),
      ttlSeconds: config.media.urlTtlSeconds,
      now: integrations.now,
    }),
    admin: createAdminService({ db, stores: integrations.storage, videoMedia, now: integrations.now }),
    /** May this member (null: anonymous) watch this video now, and until which second? (entitlement.service.ts) */
    canWatch: (memberId: number | null, videoId: number) => canWatch(db, memberId, videoId, integrations.now()),
  }
}

export type Services = ReturnType<typeof createServices>
