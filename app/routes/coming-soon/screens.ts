import type { ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

type Place = NonNullable<ComingSoonScreen['links']>[number]

// Where to go meanwhile; the first place a screen names is its main button.
const COURSES: Place = { to: '/ke', label: '浏览全部课程' }
const MINE: Place = { to: '/mine', label: '回到我的' }
const SERVICE: Place = { to: '/customer', label: '联系客服' }

/** The builder of the screens one piece of work brings: a title, what it will be for, and where to go meanwhile. */
function arrivingWith(arrives: ComingSoonScreen['arrives']) {
  return (title: string, purpose: string, ...links: Place[]): ComingSoonScreen => ({ title, purpose, arrives, links })
}
const learning = arrivingWith('learning')
const commerce = arrivingWith('commerce')
const later = arrivingWith('later')

/** A screen for teachers and customer service (it says so); for now they can only reach the service chat. */
function staff(title: string, purpose: string): ComingSoonScreen {
  return { ...later(title, purpose, SERVICE), staffOnly: true }
}

/**
 * The screens not built yet (docs/routes.md), by the name app/routes.ts gives them (`soon('wallet', …)`): each
 * its real title, what it will be for and where to go meanwhile. A screen that gets built leaves this table for
 * a route module of its own.
 */
const SCREENS: Record<string, ComingSoonScreen> = {
  // Learning (issue 3)
  'course-question': learning('课程问答', '针对课程内容提问，查看老师和同学的解答。', COURSES, SERVICE),
  homework: learning('课程作业', '提交课程作业，查看老师的批改和点评。', COURSES, MINE),
  'my-posters': learning('我的海报', '你制作过的分享海报。', COURSES, MINE),
  'poster-create': learning('制作海报', '从模板制作一张新的分享海报。', COURSES),
  'poster-preview': learning('海报预览', '预览并保存这门课程的分享海报。', COURSES),
  'poster-templates': learning('海报模板', '可以选用的分享海报模板。', COURSES),
  poster: learning('分享海报', '为课程生成带有你的推广码二维码的分享海报，保存后发给朋友。', COURSES, MINE),
  progress: learning('学习进度', '一门课程的作业和学习进度：完成了哪些视频、交了哪些作业。', COURSES, MINE),
  // Buying and money (issue 4)
  promotion: commerce('推广中心', '推广计划总览：你的推广码、邀请人数和累计收益。', MINE, SERVICE),
  tasks: commerce('积分任务', '完成学习、分享等任务可以获得积分。', MINE, COURSES),
  'wallet-records': commerce('收益与提现记录', '推广收益明细和提现记录。', MINE, SERVICE),
  wallet: commerce('我的钱包', '钱包余额、推广收益和提现。', MINE, SERVICE),
  // Account
  'app-login': later('App 登录', '从自学 App 跳转过来时在这里自动完成登录。', MINE),
  'mini-program': later('打开小程序', '从这里跳转到自学微信小程序。', MINE, SERVICE),
  // Activities and lead forms
  'activity-entries': later('参赛作品', '活动的全部参赛作品，可以为喜欢的作品投票。', COURSES, SERVICE),
  'activity-entry': later('作品详情', '一件参赛作品的详情和票数。', COURSES, SERVICE),
  'activity-home': later('活动', '当前活动的介绍、规则和报名入口。', COURSES, SERVICE),
  'activity-my-entry': later('我的参赛作品', '你报名的活动和提交的作品。', MINE, SERVICE),
  'activity-results': later('活动结果', '活动的评选结果和获奖名单。', COURSES, SERVICE),
  // Customer service, staff and WeCom
  'member-profile': staff('学员资料', '客服查看一位学员的资料、课程和学习情况。'),
  'room-messages': staff('群聊消息记录', '学员在学习群里的消息记录。'),
  'staff-messages': staff('客服消息记录', '客服与学员之间的消息记录。'),
  'wecom-chat': staff('学员资料（企业微信）', '企业微信侧边栏：当前聊天学员的资料和已购课程。'),
  'wecom-study': staff('学习详情（企业微信）', '企业微信侧边栏：当前聊天学员的学习详情。'),
}

/** The screen of a placeholder route, from its id (`soon:<name>:<path>`); an unknown name is a programming error. */
export function soonScreen(routeId: string | undefined): ComingSoonScreen {
  const screen = SCREENS[routeId?.split(':')[1] ?? '']
  if (!screen) throw new Error(`no coming-soon screen for route ${routeId}`)
  return screen
}
