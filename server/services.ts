import path from 'node:path'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import type { Metrics } from '#server/http/metrics.ts'
import { createResumableStore } from '#server/integrations/storage/resumable.ts'
import { createMediaStores } from '#server/integrations/storage/stores.ts'
import type { MediaStores } from '#server/integrations/storage/storage.ts'
import { createPaymentProviders } from '#server/integrations/payments/providers.ts'
import { createSmsProvider } from '#server/integrations/sms/provider.ts'
import type { SmsProvider } from '#server/integrations/sms/sms.ts'
import type { WechatClient } from '#server/integrations/wechat/wechat-client.ts'
import { createWechatHttpClient } from '#server/integrations/wechat/wechat-http-client.ts'
import { createAdminService, createMemberAdmin } from '#server/modules/admin/admin.service.ts'
import { createAttributionService } from '#server/modules/attribution/attribution.service.ts'
import { createAuditService } from '#server/modules/audit/audit.service.ts'
import { createAuthService } from '#server/modules/auth/auth.service.ts'
import { bindPhone } from '#server/use-cases/bind-phone.ts'
import { deleteMemberAccount } from '#server/use-cases/delete-member-account.ts'
import { exportMemberData } from '#server/use-cases/export-member-data.ts'
import {
  createCatalogueFacts,
  createCatalogueService,
  createHotWordAdmin,
  createRecommendService,
  createSearchService,
} from '#server/modules/catalogue/catalogue.service.ts'
import { createDashboardService, createSalesFigures } from '#server/modules/dashboard/dashboard.service.ts'
import { createCommentModeration, createCommentsService } from '#server/modules/comments/comments.service.ts'
import { createAccessService, ownedCourseIds } from '#server/modules/access/access.service.ts'
import { createFavouritesService, favouriteTargetIds } from '#server/modules/favourites/favourites.service.ts'
import { createFollowsService } from '#server/modules/follows/follows.service.ts'
import { createHomeAdmin, createHomeService } from '#server/modules/home/home.service.ts'
import {
  createLearningService,
  createPopupAdmin,
  recentlyWatchedCourseIds,
} from '#server/modules/learning/learning.service.ts'
import { createMediaService } from '#server/modules/media/media.service.ts'
import { createPlaybackService } from '#server/modules/media/playback.service.ts'
import { signingSecretSource } from '#server/modules/media/signing.ts'
import { createVideoMediaService } from '#server/modules/media/video-media.service.ts'
import { createMembersService } from '#server/modules/members/members.service.ts'
import { createStaffService } from '#server/modules/members/staff.service.ts'
import { createStepUp } from '#server/http/step-up.ts'
import { createCouponAdmin, createCouponService } from '#server/modules/coupons/coupons.service.ts'
import { createOverlayService } from '#server/modules/overlays/overlays.service.ts'
import { createPointLedgerAdmin, createPointService } from '#server/modules/points/points.service.ts'
import { boughtWithPhone } from '#server/modules/exchange/exchange.service.ts'
import { createSettingsService } from '#server/modules/settings/settings.service.ts'
import { createTokenResolver } from '#server/modules/sessions/session.service.ts'
import { createStatsService } from '#server/modules/stats/stats.service.ts'
import { createVipService } from '#server/modules/vip/vip.service.ts'
import { createBundleService } from '#server/modules/bundles/bundles.service.ts'
import { createWechatService, sharedWechatCredentials } from '#server/modules/wechat/wechat.service.ts'
import { createCommerceServices } from '#server/services-commerce.ts'
import { explainCourseAccess } from '#server/use-cases/explain-course-access.ts'
import { listKuaishouComments, readKuaishouCourse } from '#server/use-cases/read-kuaishou-course.ts'
import { createRedeemServices } from '#server/services-redeem.ts'
import { createExchangeServices } from '#server/services-exchange.ts'
import { createTuitionServices } from '#server/services-tuition.ts'

/** Outside systems and the clock, passed in so tests and the demo can put simulators in their place. */
export interface Integrations {
  now: () => Date
  /** WeChat OAuth and JS-SDK: the real adapter, against api.weixin.qq.com or the local simulator. */
  wechat: WechatClient
  /** SMS codes: console (development, demo), Aliyun or Tencent, as SMS_PROVIDER says. */
  sms: SmsProvider
  /** Files: public (served at /media/) and private (video sources, encrypted HLS; signed access only). */
  storage: MediaStores
  /** Outbound HTTP of the payment adapters and simulators (WeChat Pay, Alipay); tests route it into the app. */
  paymentsFetch: typeof globalThis.fetch
  /** Outbound HTTP of the order platforms' adapters and simulators (Douyin); tests route it into the app. */
  platformFetch: typeof globalThis.fetch
}

/**
 * The real adapters. With `db`, what every process of the site must share lives in it (WeChat's access token and
 * JS-SDK ticket); without (scripts that never call WeChat), in this process.
 */
export async function defaultIntegrations(config: Config, db?: Db): Promise<Integrations> {
  const now = () => new Date()
  return {
    now,
    sms: createSmsProvider(config),
    wechat: createWechatHttpClient({
      apiBase: config.wechat.apiBase,
      appId: config.wechat.appId,
      appSecret: config.wechat.appSecret,
      now,
      ...(db ? { credentials: sharedWechatCredentials(db) } : {}),
    }),
    storage: await createMediaStores(config.storage),
    paymentsFetch: (input, init) => globalThis.fetch(input, init),
    platformFetch: (input, init) => globalThis.fetch(input, init),
  }
}

/** The process's metrics and its business-event log (server/app.ts makes them with the app's logger). */
export interface Telemetry {
  metrics: Metrics
  events: BusinessEvents
}

/** Counts every SMS send by provider and result. */
function countedSms(sms: SmsProvider, metrics: Metrics): SmsProvider {
  return {
    name: sms.name,
    ...(sms.outbox && { outbox: sms.outbox }),
    async send(phone, code, purpose) {
      try {
        await sms.send(phone, code, purpose)
        metrics.smsSends.inc({ provider: sms.name, result: 'sent' })
      } catch (err) {
        metrics.smsSends.inc({ provider: sms.name, result: 'failed' })
        throw err
      }
    },
  }
}

/**
 * The services every route and page use. Each domain adds its own here; routes and loaders reach them through
 * this object, never by importing repositories.
 */
export async function createServices(config: Config, db: Db, integrations: Integrations, telemetry: Telemetry) {
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
  /** `cacheMs: 0` for every public read's cache when PUBLIC_READ_CACHE=false (benchmarks); their defaults else. */
  const cacheMs = config.publicReadCache ? undefined : 0
  /** Course and lesson facts (free flags, length, containing system courses) in a short-lived LRU. */
  const facts = createCatalogueFacts({ db, ...(cacheMs === 0 && { ttlMs: 0 }) })
  /** The one access function: may this member (null: anonymous) watch this lesson or course, why, until when. */
  const access = createAccessService({ db, now: integrations.now, facts })
  const catalogue = createCatalogueService({ db, now: integrations.now, cacheMs })
  const playback = createPlaybackService({
    db,
    stores: integrations.storage,
    secret: signingSecretSource(config, db),
    ttlSeconds: config.media.urlTtlSeconds,
    segmentRedirect: config.storage.kind === 's3' && config.storage.segmentRedirect,
    now: integrations.now,
    canWatch: access.canWatch,
    facts,
  })
  const vip = createVipService({ db, now: integrations.now, cacheMs })
  const media = createMediaService({
    db,
    storage: integrations.storage.public,
    now: integrations.now,
    publicUrl: config.publicUrl,
  })
  const paymentProviders = createPaymentProviders(config.payments, {
    fetch: integrations.paymentsFetch,
    now: integrations.now,
  })
  const favourites = createFavouritesService({ db, now: integrations.now, facts })
  const members = createMembersService({ db, now: integrations.now, media })
  const comments = createCommentsService({ db, now: integrations.now })
  const home = createHomeService({ db, cacheMs })
  const kuaishou = { db, courseDetail: (id: number) => catalogue.courseDetail(id), comments }
  const auth = createAuthService({
    config,
    db,
    sms: countedSms(integrations.sms, telemetry.metrics),
    now: integrations.now,
    boughtElsewhere: boughtWithPhone,
  })
  // Orders, payments and refunds: workflows in server/use-cases bound to their dependencies.
  const commerce = createCommerceServices({
    db,
    config,
    providers: paymentProviders,
    now: integrations.now,
    favourites,
    telemetry,
  })
  return {
    config,
    db,
    now: integrations.now,
    /** Unfinished resumable (tus) video uploads: a scratch folder, or multipart uploads in the private bucket. */
    resumableUploads: await createResumableStore(config.storage, path.join(config.dataDir, 'resumable-uploads')),
    /** Metrics and business events (the job worker reports to them; GET /metrics serves the metrics). */
    telemetry,
    wechat: createWechatService({ db, config, wechat: integrations.wechat, now: integrations.now }),
    auth,
    /** POST /bind_phone: the code, then the phone or the merge of two members (issue 10 §3). */
    bindPhone: (memberId: number, input: Parameters<typeof bindPhone>[2]) =>
      bindPhone({ db, now: integrations.now, auth }, memberId, input),
    /** A member's data export and account deletion, each after an SMS code (issue 10 §5). */
    account: {
      sendCode: (memberId: number, ctx: Parameters<typeof auth.sendAccountCode>[1]) =>
        auth.sendAccountCode(memberId, ctx),
      exportData: (memberId: number, code: string) =>
        exportMemberData({ db, now: integrations.now, auth }, memberId, code),
      deleteAccount: (memberId: number, code: string, log: Parameters<typeof deleteMemberAccount>[3]) =>
        deleteMemberAccount({ db, now: integrations.now, auth, media }, memberId, code, log),
    },
    /** Who a ZXB-Token stands for (server/http/auth.ts asks on every request that sends one). */
    resolveToken: createTokenResolver({ db, now: integrations.now, staffSessionHours: config.staffSessionHours }),
    /** Step-up proofs for sensitive staff actions (server/http/step-up.ts). */
    stepUp: createStepUp(config.sms.codePepper, integrations.now),
    staff: createStaffService({ db, now: integrations.now }),
    /** First touches of promotion sources (server/http/request-context.ts records them). */
    attribution: createAttributionService({ db }),
    /** The record of operators' changes (server/http/staff-audit.ts writes it; admins read it). */
    audit: createAuditService({ db }),
    members,
    /** GET /userinfo and the /mine page: the profile with the member's VIP, read together (issue 11 §4). */
    userInfo: async (memberId: number) => {
      const [profile, membership] = await Promise.all([members.profile(memberId), vip.membership(memberId)])
      return { ...profile, vip: membership }
    },
    media,
    catalogue,
    home,
    /** The home feed as operators edit it; each write drops the learners' cached feed. */
    homeAdmin: createHomeAdmin({ db, invalidate: home.invalidate }),
    /** Hot search words as operators keep them; each write drops the learners' cached list. */
    hotWordAdmin: createHotWordAdmin({ db, invalidate: catalogue.invalidateHotWords }),
    overlays: createOverlayService({ db, now: integrations.now }),
    /** Settings operators edit (customer service); the learner pages read them through the root loader. */
    settings: createSettingsService({ db, now: integrations.now, defaults: config.client, ttlMs: 60_000 }),
    vip,
    bundles: createBundleService({ db, now: integrations.now, cacheMs }),
    storage: integrations.storage,
    videoMedia,
    playback,
    admin: createAdminService({
      db,
      stores: integrations.storage,
      videoMedia,
      now: integrations.now,
      events: telemetry.events,
    }),
    /** Members for the operators' console: search, a member's page, grants and revocations, signing out. */
    memberAdmin: createMemberAdmin({ db, now: integrations.now, events: telemetry.events }),
    access,
    /** Why the member has a course, or no longer has it (the course page). */
    explainCourseAccess: (memberId: number, courseId: number) =>
      explainCourseAccess({ db, now: integrations.now }, memberId, courseId),
    /** May this member (null: anonymous) watch this video now, and until which second (the player's view). */
    canWatch: access.canWatch,
    ...commerce,
    /** Redeem codes: the learner's preview, exchange and record; the console's batches (issue 14 §1). */
    ...createRedeemServices({ db, config, now: integrations.now }),
    ...createTuitionServices({
      db,
      config,
      now: integrations.now,
      stores: integrations.storage,
      auth,
      commerce: commerce.commerceDeps,
    }),
    coupons: createCouponService({ db, now: integrations.now }),
    /** The operators' coupon lists: templates with issued and used counts, issued coupons. */
    couponAdmin: createCouponAdmin({ db, now: integrations.now }),
    points: createPointService({ db, config, now: integrations.now }),
    /** Every member's points ledger for the console. */
    pointLedger: createPointLedgerAdmin({ db }),
    learning: createLearningService({
      db,
      now: integrations.now,
      courseDetail: (id) => catalogue.courseDetail(id),
      play: (memberId, videoId, known) => playback.play(memberId, videoId, known),
      canWatch: access.canWatch,
      facts,
      vipMembership: (memberId) => vip.membership(memberId),
    }),
    /** The player's popups as operators keep them; each write drops the players' cached popups. */
    popupAdmin: createPopupAdmin({ db }),
    // Favourites, search, follows, recommendations, comments and click statistics (issue 3, sections 4–6).
    favourites,
    search: createSearchService({ db, cacheMs }),
    follows: createFollowsService({ db, now: integrations.now, catalogue }),
    recommend: createRecommendService({
      db,
      cacheMs,
      sources: {
        recentlyWatched: (memberId, limit) => recentlyWatchedCourseIds(db, memberId, limit),
        favourites: (memberId) => favouriteTargetIds(db, memberId),
        owned: (memberId, courseIds) => ownedCourseIds(db, memberId, courseIds, integrations.now()),
      },
    }),
    comments,
    /** The landing page of a course sold on Kuaishou (/course/ks/{id}) and its comments (issue 14 §2). */
    kuaishouCourse: {
      course: (id: number) => readKuaishouCourse(kuaishou, id),
      comments: (...a: Parameters<typeof listKuaishouComments> extends [unknown, ...infer R] ? R : never) =>
        listKuaishouComments(kuaishou, ...a),
    },
    /** The operators' comment moderation queue. */
    commentModeration: createCommentModeration({ db, comments, now: integrations.now }),
    stats: createStatsService({ db, now: integrations.now }),
    // Platform orders exchanged for courses (issue 14 §2).
    ...createExchangeServices({
      config,
      db,
      now: integrations.now,
      fetch: integrations.platformFetch,
      events: telemetry.events,
    }),
    /** The operators' console: dashboard figures from the orders, refunds and ledgers. */
    dashboard: createDashboardService({ db, now: integrations.now }),
    /** The staff's sales figures on a phone (GET /data/sell). */
    sales: createSalesFigures({ db, now: integrations.now }),
  }
}

export type Services = Awaited<ReturnType<typeof createServices>>
