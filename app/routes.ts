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
  route('teacher/:id?', 'routes/teacher/detail.tsx'),

  // Learning (issue 3)
  route('v/:id?', 'routes/learning/player.tsx'),
  route('li/:id?', 'routes/learning/live.tsx'),
  route('ke3', 'routes/learning/my-system-courses.tsx'),
  route('course/systemCourse', 'routes/learning/system-course.tsx'),
  route('course/systemGroup', 'routes/learning/system-group.tsx'),
  route('course/question', 'routes/learning/course-question.tsx'),
  ...same('routes/community/comment-detail.tsx', ['course/commentDetail', 'mine/commentDetail/:id?'], 'comment-detail'),
  route('mine/comment/:id?', 'routes/community/my-comments.tsx'),
  route('search', 'routes/community/search.tsx'),
  route('searchCourse', 'routes/community/search-results.tsx'),
  route('studyRecord', 'routes/learning/study-record.tsx'),
  route('myCollection', 'routes/community/favourites.tsx'),
  route('progress/:id?', 'routes/learning/progress.tsx'),
  ...same('routes/learning/homework.tsx', ['work/:id?', 'mine/homework/:id?'], 'homework'),
  route('painter', 'routes/learning/poster.tsx'),
  route('painter/list', 'routes/learning/poster-templates.tsx'),
  route('painter/:id', 'routes/learning/poster-preview.tsx'),
  route('pa', 'routes/learning/my-posters.tsx'),
  route('pa/create', 'routes/learning/poster-create.tsx'),
  route('course/pause/:id?', 'routes/learning/course-pause.tsx'),

  // Buying and money (issue 4)
  route('foryou/:id?', 'routes/commerce/for-you.tsx'),
  route('course/coursePurchase', 'routes/commerce/course-purchase.tsx'),
  route('course/creditPay/:id?', 'routes/commerce/credit-pay.tsx'),
  route('course/ks/:id?', 'routes/commerce/kuaishou-course.tsx'),
  route('vipBuy', 'routes/commerce/vip-buy.tsx'),
  route('vip/d/:id?', 'routes/commerce/vip-plan.tsx'),
  route('PayAmount', 'routes/commerce/pay-amount.tsx'),
  route('PaymentSuccessful', 'routes/commerce/payment-result.tsx'),
  route('payRedirect', 'routes/commerce/pay-redirect.tsx'),
  ...same('routes/commerce/orders.tsx', ['order/:id?', 'order2/:id?', 'order3/:id?', 'order4/:id?'], 'orders'),
  route('refund/:id?', 'routes/commerce/refund.tsx'),
  route('contract/:id?', 'routes/commerce/contract-sign.tsx'),
  route('contract/see/:id?', 'routes/commerce/contract-view.tsx'),
  route('points', 'routes/commerce/points.tsx'),
  route('task', 'routes/commerce/tasks.tsx'),
  route('wallet', 'routes/commerce/wallet.tsx'),
  route('wallet/extension', 'routes/commerce/promotion.tsx'),
  route('wallet/record', 'routes/commerce/wallet-records.tsx'),
  ...same('routes/commerce/exchange-orders.tsx', ['data/tt', 'data/ks', 'data/xhs', 'data/wechatShop'], 'exchange'),

  // Account
  route('wechatLogin', 'routes/account/wechat-login.tsx'),
  route('headPortrait', 'routes/account/avatar.tsx'),
  route('headPortrait/dataName', 'routes/account/nickname.tsx'),
  route('ke2', 'routes/account/purchaser-login.tsx'),
  route('appLogin', 'routes/account/app-login.tsx'),
  route('mp', 'routes/account/mini-program.tsx'),

  // Activities and lead forms
  ...same('routes/activity/home.tsx', ['ac', 'act/:id?'], 'activity'),
  ...same('routes/activity/entries.tsx', ['ac/list', 'act/list/:id?'], 'activity-entries'),
  ...same('routes/activity/entry.tsx', ['ac/detail/:id?', 'act/detail/:id?'], 'activity-entry'),
  ...same('routes/activity/my-entry.tsx', ['ac/mine', 'act/mine/:id?'], 'activity-mine'),
  ...same('routes/activity/results.tsx', ['ac/final', 'act/final/:id?'], 'activity-results'),
  ...same('routes/activity/lead-form.tsx', ['form/1', 'form/2'], 'lead-form'),

  // Customer service, staff and WeCom
  ...same(
    'routes/service/customer.tsx',
    ['customer', 'customerB', 'customerG', 'customerT', 'customerG/user', 'dmmHcWCus/:id?'],
    'customer',
  ),
  route('cus/:id?', 'routes/service/member-profile.tsx'),
  ...same('routes/service/staff-messages.tsx', ['cus/msg', 'cus/msg1'], 'staff-messages'),
  route('cus/roomMsg', 'routes/service/room-messages.tsx'),
  route('workWechat/chat', 'routes/service/wecom-chat.tsx'),
  route('workWechat/study', 'routes/service/wecom-study.tsx'),
  route('data/sell', 'routes/service/sales.tsx'),
  route('data/follow', 'routes/service/follow.tsx'),
  route('data/wwx', 'routes/service/add-wecom.tsx'),

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
