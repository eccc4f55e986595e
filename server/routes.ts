import type { FastifyInstance } from 'fastify'
import { adminRoutes } from '#server/modules/admin/admin.routes.ts'
import { adminUploadRoutes } from '#server/modules/admin/admin-uploads.routes.ts'
import { adminMemberRoutes } from '#server/modules/admin/admin-members.routes.ts'
import { authRoutes } from '#server/modules/auth/auth.routes.ts'
import { catalogueRoutes } from '#server/modules/catalogue/catalogue.routes.ts'
import { commentsRoutes } from '#server/modules/comments/comments.routes.ts'
import { adminCommentRoutes } from '#server/modules/comments/comments-admin.routes.ts'
import { favouritesRoutes } from '#server/modules/favourites/favourites.routes.ts'
import { followsRoutes } from '#server/modules/follows/follows.routes.ts'
import { homeRoutes } from '#server/modules/home/home.routes.ts'
import { adminHomeRoutes } from '#server/modules/home/home-admin.routes.ts'
import { learningRoutes } from '#server/modules/learning/learning.routes.ts'
import { adminPopupRoutes } from '#server/modules/learning/popups-admin.routes.ts'
import { mediaRoutes } from '#server/modules/media/media.routes.ts'
import { playbackApiRoutes } from '#server/modules/media/playback.routes.ts'
import { accountRoutes } from '#server/modules/members/account.routes.ts'
import { membersRoutes } from '#server/modules/members/members.routes.ts'
import { adminStaffRoutes, consoleMeRoutes } from '#server/modules/members/staff.routes.ts'
import { stepUpRoutes } from '#server/modules/auth/step-up.routes.ts'
import { adminOrderRoutes, ordersRoutes } from '#server/modules/orders/orders.routes.ts'
import { overlayRoutes } from '#server/modules/overlays/overlays.routes.ts'
import { adminOverlayRoutes } from '#server/modules/overlays/overlays-admin.routes.ts'
import { adminSettingsRoutes, settingsRoutes } from '#server/modules/settings/settings.routes.ts'
import { paymentsRoutes } from '#server/modules/payments/payments.routes.ts'
import { adminPaymentRoutes } from '#server/modules/payments/payments-admin.routes.ts'
import { adminRefundRoutes, refundRoutes } from '#server/modules/refunds/refunds.routes.ts'
import { adminRedeemRoutes, redeemRoutes } from '#server/modules/redeem/redeem.routes.ts'
import { adminVipRoutes, vipRoutes } from '#server/modules/vip/vip.routes.ts'
import { adminBundleRoutes, bundleRoutes } from '#server/modules/bundles/bundles.routes.ts'
import { adminAuditRoutes } from '#server/modules/audit/audit.routes.ts'
import { adminCouponRoutes, couponRoutes } from '#server/modules/coupons/coupons.routes.ts'
import { adminPointRoutes, pointRoutes } from '#server/modules/points/points.routes.ts'
import { adminPointLedgerRoutes } from '#server/modules/points/points-ledger.routes.ts'
import { recommendRoutes } from '#server/modules/catalogue/recommend.routes.ts'
import { searchRoutes } from '#server/modules/catalogue/search.routes.ts'
import { adminHotWordRoutes } from '#server/modules/catalogue/hot-words-admin.routes.ts'
import { adminDashboardRoutes } from '#server/modules/dashboard/dashboard.routes.ts'
import { salesRoutes } from '#server/modules/dashboard/sales.routes.ts'
import { statsRoutes } from '#server/modules/stats/stats.routes.ts'
import { wechatRoutes } from '#server/modules/wechat/wechat.routes.ts'
import { exchangeRoutes } from '#server/modules/exchange/exchange.routes.ts'
import { accessRoutes } from '#server/modules/access/access.routes.ts'
import { adminExchangeRoutes } from '#server/modules/exchange/exchange-admin.routes.ts'
import { tuitionRoutes } from '#server/modules/tuition/tuition.routes.ts'
import { adminTuitionRoutes } from '#server/modules/tuition/tuition-admin.routes.ts'
import type { Services } from '#server/services.ts'
import { Codes } from '#server/http/codes.ts'
import { sendError } from '#server/http/error-handler.ts'

/**
 * Every API route, under /api. Each domain's routes file declares its own full paths and takes only what it uses
 * (its module's service, the few settings it reads); no route file sees the database handle or the whole config.
 */
export async function apiRoutes(app: FastifyInstance, opts: { services: Services }) {
  const s = opts.services
  // /api/health, /api/health/live and /api/health/ready: server/http/health.ts (registered by server/app.ts).

  await app.register(wechatRoutes, {
    wechat: s.wechat,
    secureCookies: s.config.production,
    followQr: () => s.settings.followQr(),
  })
  await app.register(authRoutes, { auth: s.auth, bindPhone: s.bindPhone, devOutbox: s.config.devOutbox })
  await app.register(membersRoutes, { members: s.members, userInfo: s.userInfo })
  await app.register(accountRoutes, { account: s.account })
  await app.register(mediaRoutes, { media: s.media })
  await app.register(catalogueRoutes, { catalogue: s.catalogue })
  await app.register(homeRoutes, { home: s.home })
  await app.register(overlayRoutes, { overlays: s.overlays, caps: s.settings.overlayCaps })
  await app.register(adminOverlayRoutes, { overlays: s.overlays })
  await app.register(adminSettingsRoutes, { settings: s.settings })
  await app.register(settingsRoutes, { settings: s.settings })
  await app.register(playbackApiRoutes, { playback: s.playback })
  await app.register(learningRoutes, { learning: s.learning })
  await app.register(adminPopupRoutes, { popups: s.popupAdmin })
  await app.register(accessRoutes, { explainCourse: s.explainCourseAccess })
  await app.register(ordersRoutes, { orders: s.orders })
  await app.register(paymentsRoutes, { payments: s.payments })
  await app.register(adminPaymentRoutes, { payments: s.payments })
  await app.register(refundRoutes, { refunds: s.refunds })
  await app.register(adminRefundRoutes, { refunds: s.refunds })
  await app.register(adminOrderRoutes, { staffOrders: s.staffOrders })
  await app.register(redeemRoutes, { redeem: s.redeem })
  await app.register(adminRedeemRoutes, { redeemAdmin: s.redeemAdmin })
  await app.register(vipRoutes, { vip: s.vip, catalogue: s.catalogue, contact: s.settings.service })
  await app.register(adminVipRoutes, { vip: s.vip })
  await app.register(bundleRoutes, { bundles: s.bundles })
  await app.register(adminBundleRoutes, { bundles: s.bundles })
  await app.register(adminAuditRoutes, { audit: s.audit })
  await app.register(couponRoutes, { coupons: s.coupons })
  await app.register(adminCouponRoutes, { coupons: s.coupons, couponAdmin: s.couponAdmin })
  await app.register(pointRoutes, { points: s.points })
  await app.register(adminPointRoutes, { points: s.points })
  await app.register(adminPointLedgerRoutes, { ledger: s.pointLedger })
  await app.register(favouritesRoutes, { favourites: s.favourites })
  await app.register(searchRoutes, { search: s.search })
  await app.register(followsRoutes, { follows: s.follows })
  await app.register(recommendRoutes, { recommend: s.recommend })
  await app.register(commentsRoutes, {
    comments: s.comments,
    stats: s.stats,
    kuaishouComments: s.kuaishouCourse.comments,
  })
  await app.register(statsRoutes, {
    stats: s.stats,
    memberOfToken: async (token) => (await s.resolveToken(token)).principal?.memberId ?? null,
  })
  await app.register(adminDashboardRoutes, { dashboard: s.dashboard })
  await app.register(salesRoutes, { sales: s.sales })
  await app.register(adminMemberRoutes, { members: s.memberAdmin })
  await app.register(adminCommentRoutes, { moderation: s.commentModeration })
  await app.register(adminHomeRoutes, { home: s.homeAdmin })
  await app.register(adminHotWordRoutes, { hotWords: s.hotWordAdmin })
  await app.register(consoleMeRoutes, { staff: s.staff })
  await app.register(adminStaffRoutes, { staff: s.staff })
  await app.register(exchangeRoutes, { exchange: s.exchange })
  await app.register(tuitionRoutes, {
    tuition: s.tuition,
    contact: (courseId) => s.courseContact(courseId, s.settings.service),
  })
  await app.register(adminTuitionRoutes, { admin: s.tuitionAdmin })
  await app.register(adminExchangeRoutes, { exchangeAdmin: s.exchangeAdmin, revokeRecord: s.revokeExchangeRecord })
  await app.register(stepUpRoutes, { auth: s.auth, stepUp: s.stepUp })
  await app.register(adminRoutes, { admin: s.admin, videoUploadMaxBytes: s.config.media.uploadMaxBytes })
  await app.register(adminUploadRoutes, {
    admin: s.admin,
    store: s.resumableUploads,
    maxBytes: s.config.media.uploadMaxBytes,
  })

  // Unknown /api paths answer 404 with the envelope instead of reaching the page renderer.
  app.all('/*', { schema: { hide: true } }, (request, reply) =>
    sendError(reply, Codes.NotFound, `接口不存在：${request.method} ${request.url.split('?')[0]}`),
  )
}
