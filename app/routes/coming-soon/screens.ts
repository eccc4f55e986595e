import type { ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

/**
 * /data/tt, /data/ks, /data/xhs, /data/wechatShop: exchange an order from that platform for the course, one
 * screen per platform (`exchange-tt`, …).
 */
function exchangeScreens(platforms: Record<string, string>): Record<string, ComingSoonScreen> {
  return Object.fromEntries(
    Object.entries(platforms).map(([key, platform]) => [
      `exchange-${key}`,
      {
        title: `${platform}订单兑换`,
        purpose: `在${platform}购买了课程？输入订单号即可兑换成本站课程，兑换后在“已购”里学习。`,
        arrives: 'commerce',
        links: [
          { to: '/customer', label: '联系客服' },
          { to: '/ke', label: '浏览全部课程' },
        ],
      },
    ]),
  )
}

/**
 * The screens not built yet (docs/routes.md), by the name app/routes.ts gives them (`soon('wallet', …)`): each
 * its real title, what it will be for and where to go meanwhile. A screen that gets built leaves this table for
 * a route module of its own.
 */
const SCREENS: Record<string, ComingSoonScreen> = {
  // Learning (issue 3)
  'course-pause': {
    title: '申请暂停学习',
    purpose: '申请暂停或退出一门课程的学习，并查看申请进度。',
    arrives: 'learning',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  'course-question': {
    title: '课程问答',
    purpose: '针对课程内容提问，查看老师和同学的解答。',
    arrives: 'learning',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  homework: {
    title: '课程作业',
    purpose: '提交课程作业，查看老师的批改和点评。',
    arrives: 'learning',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/mine', label: '回到我的' },
    ],
  },
  'my-posters': {
    title: '我的海报',
    purpose: '你制作过的分享海报。',
    arrives: 'learning',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/mine', label: '回到我的' },
    ],
  },
  'poster-create': {
    title: '制作海报',
    purpose: '从模板制作一张新的分享海报。',
    arrives: 'learning',
    links: [{ to: '/ke', label: '浏览全部课程' }],
  },
  'poster-preview': {
    title: '海报预览',
    purpose: '预览并保存这门课程的分享海报。',
    arrives: 'learning',
    links: [{ to: '/ke', label: '浏览全部课程' }],
  },
  'poster-templates': {
    title: '海报模板',
    purpose: '可以选用的分享海报模板。',
    arrives: 'learning',
    links: [{ to: '/ke', label: '浏览全部课程' }],
  },
  poster: {
    title: '分享海报',
    purpose: '为课程生成带有你的推广码二维码的分享海报，保存后发给朋友。',
    arrives: 'learning',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/mine', label: '回到我的' },
    ],
  },
  progress: {
    title: '学习进度',
    purpose: '一门课程的作业和学习进度：完成了哪些视频、交了哪些作业。',
    arrives: 'learning',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/mine', label: '回到我的' },
    ],
  },
  // Buying and money (issue 4)
  'contract-sign': {
    title: '签署合同',
    purpose: '阅读并在线签署学费合同。',
    arrives: 'commerce',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/mine', label: '回到我的' },
    ],
  },
  'contract-view': {
    title: '查看合同',
    purpose: '查看你已签署的合同。',
    arrives: 'commerce',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/mine', label: '回到我的' },
    ],
  },
  'kuaishou-course': {
    title: '快手课程',
    purpose: '在快手购买的课程从这里用订单兑换，兑换后即可在本站学习。',
    arrives: 'commerce',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  },
  promotion: {
    title: '推广中心',
    purpose: '推广计划总览：你的推广码、邀请人数和累计收益。',
    arrives: 'commerce',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  tasks: {
    title: '积分任务',
    purpose: '完成学习、分享等任务可以获得积分。',
    arrives: 'commerce',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  },
  'wallet-records': {
    title: '收益与提现记录',
    purpose: '推广收益明细和提现记录。',
    arrives: 'commerce',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  wallet: {
    title: '我的钱包',
    purpose: '钱包余额、推广收益和提现。',
    arrives: 'commerce',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  ...exchangeScreens({ tt: '抖音', ks: '快手', xhs: '小红书', wechatshop: '微信小店' }),
  // Account
  'app-login': {
    title: 'App 登录',
    purpose: '从自学 App 跳转过来时在这里自动完成登录。',
    arrives: 'later',
    links: [{ to: '/mine', label: '回到我的' }],
  },
  'mini-program': {
    title: '打开小程序',
    purpose: '从这里跳转到自学微信小程序。',
    arrives: 'later',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  // Activities and lead forms
  'activity-entries': {
    title: '参赛作品',
    purpose: '活动的全部参赛作品，可以为喜欢的作品投票。',
    arrives: 'later',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  'activity-entry': {
    title: '作品详情',
    purpose: '一件参赛作品的详情和票数。',
    arrives: 'later',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  'activity-home': {
    title: '活动',
    purpose: '当前活动的介绍、规则和报名入口。',
    arrives: 'later',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  'activity-my-entry': {
    title: '我的参赛作品',
    purpose: '你报名的活动和提交的作品。',
    arrives: 'later',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  'activity-results': {
    title: '活动结果',
    purpose: '活动的评选结果和获奖名单。',
    arrives: 'later',
    links: [
      { to: '/ke', label: '浏览全部课程' },
      { to: '/customer', label: '联系客服' },
    ],
  },
  'lead-form-signup': {
    title: '课程报名',
    purpose: '填写报名信息预约课程，课程顾问会联系你确认开课安排。',
    arrives: 'later',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  },
  'lead-form-consult': {
    title: '免费咨询',
    purpose: '留下你的联系方式和想学的方向，课程顾问会尽快联系你。',
    arrives: 'later',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  },
  // Customer service, staff and WeCom
  'add-wecom': {
    title: '添加老师企业微信',
    purpose: '添加你的专属老师的企业微信，获得学习指导。',
    arrives: 'later',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  },
  follow: {
    title: '关注公众号',
    purpose: '扫码关注自学公众号，及时收到课程更新和学习提醒。',
    arrives: 'later',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  },
  'member-profile': {
    title: '学员资料',
    purpose: '客服查看一位学员的资料、课程和学习情况。',
    arrives: 'later',
    links: [{ to: '/customer', label: '联系客服' }],
    staffOnly: true,
  },
  'room-messages': {
    title: '群聊消息记录',
    purpose: '学员在学习群里的消息记录。',
    arrives: 'later',
    links: [{ to: '/customer', label: '联系客服' }],
    staffOnly: true,
  },
  sales: {
    title: '销售数据',
    purpose: '课程销售数据统计。',
    arrives: 'later',
    links: [{ to: '/customer', label: '联系客服' }],
    staffOnly: true,
  },
  'staff-messages': {
    title: '客服消息记录',
    purpose: '客服与学员之间的消息记录。',
    arrives: 'later',
    links: [{ to: '/customer', label: '联系客服' }],
    staffOnly: true,
  },
  'wecom-chat': {
    title: '学员资料（企业微信）',
    purpose: '企业微信侧边栏：当前聊天学员的资料和已购课程。',
    arrives: 'later',
    links: [{ to: '/customer', label: '联系客服' }],
    staffOnly: true,
  },
  'wecom-study': {
    title: '学习详情（企业微信）',
    purpose: '企业微信侧边栏：当前聊天学员的学习详情。',
    arrives: 'later',
    links: [{ to: '/customer', label: '联系客服' }],
    staffOnly: true,
  },
}

/** The screen of a placeholder route, from its id (`soon:<name>:<path>`); an unknown name is a programming error. */
export function soonScreen(routeId: string | undefined): ComingSoonScreen {
  const screen = SCREENS[routeId?.split(':')[1] ?? '']
  if (!screen) throw new Error(`no coming-soon screen for route ${routeId}`)
  return screen
}
