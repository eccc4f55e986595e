import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

/**
 * Every URL of the product spec's route table (section 2; meanings in ../shared/spec/routes.md). Existing links
 * point at these legacy names, so each one renders a screen or, for the aliases, redirects (302). The decision
 * for each URL, and which issue brings the screens still marked "coming soon", is kept in docs/routes.md; keep
 * the two in step. Static paths outrank dynamic ones, so /course/systemCourse never reaches /course/:id.
 */

/** Several URLs showing one screen need their own route ids. */
function same(file: string, paths: string[], idPrefix: string) {
  return paths.map((path) => route(path, file, { id: `${idPrefix}:${path}` }))
}

/**
 * URLs whose screens are not built yet, by screen name: one placeholder module for all of them, told apart by the
 * route id (`soon:<name>:<path>`; the names are in routes/coming-soon/screens.ts).
 */
function soon(screens: Record<string, string[]>) {
  return Object.entries(screens).flatMap(([name, paths]) =>
    same('routes/coming-soon/screen.tsx', paths, `soon:${name}`),
  )
}

export default [
  // The five tab screens share the layout that draws the bottom tab bar: the bar shows exactly here.
  layout('routes/tabs/layout.tsx', [
    index('routes/home/index.tsx'),
    route('boutique', 'routes/category/index.tsx'),
    route('vip', 'routes/commerce/vip.tsx'),
    route('ke1', 'routes/learning/purchased.tsx'),
    route('mine', 'routes/account/mine.tsx'),
  ]),

  // Catalogue
  // The home screen again, with the v2 feed and no tab bar (routes/home/index.tsx tells them apart by path).
  route('index1', 'routes/home/index.tsx', { id: 'home:index1' }),
  route('ke', 'routes/courses/index.tsx'),
  route('list/:id?', 'routes/courses/list.tsx'),
  route('course/:id', 'routes/course/detail.tsx'),
  // A course sold in the Kuaishou shop, leading to its exchange (issue 14 §2)
  route('course/ks/:id?', 'routes/course/kuaishou.tsx'),
  route('teacher/:id?', 'routes/teacher/detail.tsx'),

  // Learning (issue 3)
  route('v/:id?', 'routes/learning/player.tsx'),
  route('li/:id?', 'routes/learning/live.tsx'),
  route('ke3', 'routes/learning/my-system-courses.tsx'),
  route('course/systemCourse', 'routes/learning/system-course.tsx'),
  route('course/systemGroup', 'routes/learning/system-group.tsx'),
  // Pause and exit of a system course (issue 15 §4)
  route('course/pause/:id?', 'routes/tuition/pause.tsx'),
  ...same('routes/community/comment-detail.tsx', ['course/commentDetail', 'mine/commentDetail/:id?'], 'comment-detail'),
  route('mine/comment/:id?', 'routes/community/my-comments.tsx'),
  // PIPL rights (issue 10 §5): data export and account deletion
  route('mine/data', 'routes/account/my-data.tsx'),
  route('search', 'routes/community/search.tsx'),
  route('searchCourse', 'routes/community/search-results.tsx'),
  route('studyRecord', 'routes/learning/study-record.tsx'),
  route('myCollection', 'routes/community/favourites.tsx'),
  ...soon({
    'course-question': ['course/question'],
    progress: ['progress/:id?'],
    homework: ['work/:id?', 'mine/homework/:id?'],
    poster: ['painter'],
    'poster-templates': ['painter/list'],
    'poster-preview': ['painter/:id'],
    'my-posters': ['pa'],
    'poster-create': ['pa/create'],
  }),

  // Buying and money (issue 4)
  route('foryou/:id?', 'routes/commerce/for-you.tsx'),
  route('course/coursePurchase', 'routes/commerce/course-purchase.tsx'),
  route('course/creditPay/:id?', 'routes/commerce/credit-pay.tsx'),
  route('vipBuy', 'routes/commerce/vip-buy.tsx'),
  route('vip/d/:id?', 'routes/commerce/vip-plan.tsx'),
  route('PayAmount', 'routes/commerce/pay-amount.tsx'),
  route('PaymentSuccessful', 'routes/commerce/payment-result.tsx'),
  route('payRedirect', 'routes/commerce/pay-redirect.tsx'),
  ...same('routes/commerce/orders.tsx', ['order/:id?', 'order2/:id?', 'order3/:id?', 'order4/:id?'], 'orders'),
  route('refund/:id?', 'routes/commerce/refund.tsx'),
  route('points', 'routes/commerce/points.tsx'),
  // System courses: contracts (issue 15 §2)
  route('contract/see/:id?', 'routes/tuition/contract-view.tsx'),
  route('contract/:id?', 'routes/tuition/contract.tsx'),
  // Platform orders exchanged for courses (issue 14 §2)
  ...same('routes/exchange/shop-page.tsx', ['data/tt', 'data/ks', 'data/xhs', 'data/wechatShop'], 'exchange'),
  ...soon({
    tasks: ['task'],
    wallet: ['wallet'],
    promotion: ['wallet/extension'],
    'wallet-records': ['wallet/record'],
  }),

  // Account
  route('wechatLogin', 'routes/account/wechat-login.tsx'),
  route('headPortrait', 'routes/account/avatar.tsx'),
  route('headPortrait/dataName', 'routes/account/nickname.tsx'),
  route('ke2', 'routes/account/purchaser-login.tsx'),
  // Redeem codes (issue 14 §1), from /mine
  route('mine/redeem', 'routes/account/redeem.tsx'),
  // Consent documents (issue 10 §5), linked from sign-in and /mine
  ...same('routes/account/agreement.tsx', ['agreement/user', 'agreement/privacy'], 'agreement'),
  ...soon({
    'app-login': ['appLogin'],
    'mini-program': ['mp'],
  }),

  // Activities and lead forms (issue 15 §1)
  ...same('routes/tuition/lead-form.tsx', ['form/1', 'form/2'], 'lead-form'),
  ...soon({
    'activity-home': ['ac', 'act/:id?'],
    'activity-entries': ['ac/list', 'act/list/:id?'],
    'activity-entry': ['ac/detail/:id?', 'act/detail/:id?'],
    'activity-my-entry': ['ac/mine', 'act/mine/:id?'],
    'activity-results': ['ac/final', 'act/final/:id?'],
  }),

  // Customer service, staff and WeCom
  ...same(
    'routes/service/customer.tsx',
    ['customer', 'customerB', 'customerG', 'customerT', 'customerG/user', 'dmmHcWCus/:id?'],
    'customer',
  ),
  ...soon({
    'member-profile': ['cus/:id?'],
    'staff-messages': ['cus/msg', 'cus/msg1'],
    'room-messages': ['cus/roomMsg'],
    'wecom-chat': ['workWechat/chat'],
    'wecom-study': ['workWechat/study'],
  }),
  // Sales figures for staff who may read them (issue 14 §2, GET /data/sell)
  route('data/sell', 'routes/service/sales.tsx'),
  // Official Account and WeCom QR codes operators set (issue 14 §2)
  route('data/follow', 'routes/service/follow.tsx'),
  route('data/wwx', 'routes/service/add-wecom.tsx'),

  // The operator console (issue 13): one route for /admin and everything under it; the console loads its own
  // chunks in the browser (routes/admin/console.tsx).
  route('admin/*', 'routes/admin/console.tsx'),

  // Aliases (302, query string kept): routes.md
  ...same(
    'routes/aliases/redirect.tsx',
    [
      'home/home',
      'home/home1',
      'aa',
      'd',
      'd_',
      'dd/:id?',
      'b/:id?',
      'bb/:id?',
      'bh/:id?',
      'bk/:id?',
      'bs/:id?',
      'n/:id?',
      's/:id?',
      'z/:id?',
      'course',
    ],
    'alias',
  ),
] satisfies RouteConfig
