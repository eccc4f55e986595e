/**
 * The demo catalogue as plain data. `seed.ts` writes it to the database and `scripts/make-demo-images.ts` draws the
 * covers, avatars and icons from it, so a title and its cover never disagree.
 */
import { z } from 'zod'
import { courseTypes } from '#shared/api/catalogue.ts'
import seedCoursesJson from './seed-courses.json' with { type: 'json' }

export interface SeedCategory {
  slug: string
  name: string
  /** The glyph drawn on the category icon. */
  glyph: string
  /** Gradient stops used by this area's icon and covers. */
  palettes: [string, string][]
  children: { slug: string; name: string; label: string }[]
}

/** Sub-categories as rows of a table: slug, name, and the short label drawn on the icon. */
const subCategories = (...rows: [slug: string, name: string, label: string][]): SeedCategory['children'] =>
  rows.map(([slug, name, label]) => ({ slug, name, label }))

export const seedCategories: SeedCategory[] = [
  {
    slug: 'software',
    name: '软件',
    glyph: '软',
    palettes: [
      ['#1f6feb', '#58a6ff'],
      ['#0b3d91', '#2f81f7'],
      ['#3a2fb8', '#7c6cf2'],
    ],
    children: subCategories(
      ['photoshop', 'Photoshop', 'Ps'],
      ['illustrator', 'Illustrator', 'Ai'],
      ['c4d', 'C4D 三维', 'C4D'],
      ['cad', 'CAD 制图', 'CAD'],
    ),
  },
  {
    slug: 'office',
    name: '办公',
    glyph: '办',
    palettes: [
      ['#0e7a4f', '#2fbf71'],
      ['#0f5e6e', '#23a6a6'],
      ['#b4541a', '#f08a3c'],
    ],
    children: subCategories(['excel', 'Excel', 'Excel'], ['word', 'Word', 'Word'], ['ppt', 'PPT', 'PPT']),
  },
  {
    slug: 'painting',
    name: '绘画插画',
    glyph: '画',
    palettes: [
      ['#c2255c', '#f06595'],
      ['#7b2cbf', '#c77dff'],
      ['#d9480f', '#ffa94d'],
    ],
    children: subCategories(
      ['digital-painting', '板绘', '板绘'],
      ['watercolor', '水彩', '水彩'],
      ['sketch', '素描', '素描'],
    ),
  },
  {
    slug: 'comics',
    name: '漫画',
    glyph: '漫',
    palettes: [
      ['#e8590c', '#ffc078'],
      ['#c92a2a', '#ff8787'],
      ['#5f3dc4', '#9775fa'],
    ],
    children: subCategories(['manga', '日系漫画', '日漫'], ['webtoon', '条漫', '条漫'], ['storyboard', '分镜', '分镜']),
  },
  {
    slug: 'video',
    name: '视频剪辑',
    glyph: '剪',
    palettes: [
      ['#212529', '#495057'],
      ['#1c3d5a', '#3d7ab8'],
      ['#5c1a3a', '#b83b7a'],
    ],
    children: subCategories(
      ['jianying', '剪映', '剪映'],
      ['premiere', 'Premiere', 'Pr'],
      ['davinci', '达芬奇调色', '调色'],
      ['after-effects', 'AE 特效', 'Ae'],
    ),
  },
  {
    slug: 'design',
    name: '设计',
    glyph: '设',
    palettes: [
      ['#0b7285', '#3bc9db'],
      ['#364fc7', '#748ffc'],
      ['#8f5b00', '#e0a526'],
    ],
    children: subCategories(['graphic', '平面设计', '平面'], ['ui', 'UI 设计', 'UI'], ['interior', '室内设计', '室内']),
  },
]

export interface SeedTeacher {
  slug: string
  name: string
  title: string
  intro: string
  colors: [string, string]
}

export const seedTeachers: SeedTeacher[] = [
  {
    slug: 'lin-xiao',
    name: '林晓',
    title: 'Adobe 认证讲师 · 资深视觉设计师',
    intro:
      '12 年品牌视觉设计经验，曾任 4A 广告公司美术指导，服务过多家消费品牌。擅长把复杂的软件操作拆成一步一步能跟上的小练习。',
    colors: ['#1f6feb', '#79c0ff'],
  },
  {
    slug: 'wang-yifan',
    name: '王一帆',
    title: '微软 Office 认证讲师 · 数据分析师',
    intro:
      '前世界五百强企业财务分析师，专注 Excel 函数、数据透视表与自动化报表。课程全部取材于真实工作场景，学完当天就能用在工作里。',
    colors: ['#0e7a4f', '#69db7c'],
  },
  {
    slug: 'chen-mo',
    name: '陈墨',
    title: '商业插画师 · 板绘讲师',
    intro:
      '自由插画师，为多家出版社和游戏公司绘制封面与角色原画，擅长厚涂与光影表现。教学强调观察与练习量，带你从临摹走到原创。',
    colors: ['#c2255c', '#faa2c1'],
  },
  {
    slug: 'zhao-mu',
    name: '赵木',
    title: '美术学院讲师 · 水彩画家',
    intro:
      '美术学院油画系毕业，从事美术教育 15 年，水彩作品多次入选省级画展。讲课耐心细致，尤其适合从来没有拿过画笔的成年人。',
    colors: ['#7b2cbf', '#d0bfff'],
  },
  {
    slug: 'su-xiaoman',
    name: '苏小满',
    title: '连载漫画作者 · 分镜师',
    intro:
      '条漫平台签约作者，代表作累计阅读量过亿。熟悉日系与国风漫画的分镜节奏，也愿意分享投稿、签约和连载更新的真实经验。',
    colors: ['#e8590c', '#ffd8a8'],
  },
  {
    slug: 'zhou-ye',
    name: '周野',
    title: '影视剪辑师 · 达芬奇认证调色师',
    intro:
      '参与多部网络电影与品牌广告的后期制作，擅长叙事剪辑与电影感调色。从手机剪映到专业调色台，他都用同一套“先讲故事再讲技巧”的思路来教。',
    colors: ['#343a40', '#868e96'],
  },
  {
    slug: 'xu-qing',
    name: '许清',
    title: '资深 UI/UX 设计师',
    intro:
      '前互联网大厂设计专家，主导过千万级用户 App 的改版。课程从设计规范讲到作品集与面试，帮助转行的同学少走弯路。',
    colors: ['#364fc7', '#91a7ff'],
  },
  {
    slug: 'he-jing',
    name: '何静',
    title: '注册室内设计师 · 软装设计师',
    intro:
      '从业 10 年，完成住宅与商业空间项目 200 余个，擅长小户型收纳与软装搭配。喜欢用真实户型带学员从量房一路做到效果图。',
    colors: ['#8f5b00', '#ffd43b'],
  },
]

const SeedCourse = z.object({
  slug: z.string(),
  type: z.enum(courseTypes),
  title: z.string(),
  subtitle: z.string(),
  /** A sub-category slug. */
  category: z.string(),
  teacher: z.string(),
  /** Yuan in the source for readability; the seed stores fen. */
  price: z.number(),
  originalPrice: z.number().optional(),
  isFree: z.boolean().optional(),
  /** Also for this many points (/course/creditPay/{id}). */
  pointsPrice: z.number().int().optional(),
  vipFree: z.boolean().optional(),
  level: z.enum(['beginner', 'intermediate', 'advanced']),
  tags: z.array(z.string()),
  students: z.number().int(),
  /** What the course is, who it is for and what one learns: three paragraphs of the intro. */
  about: z.string(),
  audience: z.string(),
  outcomes: z.string(),
  /** Chapters with their lesson titles. */
  chapters: z.array(z.tuple([z.string(), z.array(z.string())])),
  /** Live courses: days from the seed time to the session (negative: already held, replay available). */
  liveInDays: z.number().int().optional(),
  /** System courses: the courses they are made of, in order. */
  items: z.array(z.string()).optional(),
})
export type SeedCourse = z.infer<typeof SeedCourse>

/** The 40 demo courses (server/db/seed-courses.json: data, checked here when the module loads). */
export const seedCourses: SeedCourse[] = z.array(SeedCourse).parse(seedCoursesJson)

export interface SeedBanner {
  slug: string
  title: string
  /** Second line on the image. */
  caption: string
  colors: [string, string]
  /** A course slug, or a path. */
  course?: string
  link?: string
}

export const seedBanners: SeedBanner[] = [
  {
    slug: 'vip',
    title: 'VIP 会员 · 好课免费学',
    caption: '年卡低至每天 8 毛钱',
    colors: ['#7a4b00', '#e0a526'],
    link: '/vip',
  },
  {
    slug: 'ps-zero',
    title: 'Photoshop 零基础入门',
    caption: '21 天带你做出第一张海报',
    colors: ['#0b3d91', '#2f81f7'],
    course: 'ps-zero',
  },
  {
    slug: 'system-illustration',
    title: '商业插画师系统班',
    caption: '从零基础到接单 · 限时优惠',
    colors: ['#7b2cbf', '#f06595'],
    course: 'system-illustration',
  },
]

export const seedHotWords = [
  'Photoshop',
  'Excel 函数',
  '剪映',
  '板绘',
  '水彩',
  'PPT',
  '达芬奇调色',
  '日系漫画',
  'UI 设计',
  '室内设计',
  'Procreate',
  '素描',
]

export const seedVipPlans = [
  {
    name: '月卡',
    days: 30,
    priceFen: 3900,
    originalPriceFen: 6900,
    description: '30 天畅学全部 VIP 免费课',
    badge: null,
  },
  {
    name: '季卡',
    days: 90,
    priceFen: 9900,
    originalPriceFen: 19900,
    description: '90 天畅学，平均每月 33 元',
    badge: '热销',
  },
  {
    name: '年卡',
    days: 365,
    priceFen: 29900,
    originalPriceFen: 69900,
    description: '365 天畅学，平均每天不到 1 元',
    badge: '最划算',
  },
]

/** Course bundles (/foryou/{id}): their courses by slug and the bundle price in yuan. */
export const seedBundles = [
  {
    title: '设计软件三件套',
    subtitle: 'PS + AI + 版式配色，一次学齐平面设计基本功',
    intro:
      '三门课覆盖平面设计最常用的两款软件和版式配色的基础。\n\n建议按 Photoshop、Illustrator、平面设计基础的顺序学习，每门课都配有练习素材。',
    courses: ['ps-zero', 'ai-vector', 'graphic-basics'],
    price: 299,
  },
  {
    title: '办公效率全家桶',
    subtitle: 'Excel + Word + PPT，职场必备四门课',
    intro:
      '从函数公式、数据透视表到长文档排版和汇报 PPT，把每天都要用的办公软件一次学透。\n\n已经买过其中几门的同学，只需为没买的课程按比例付费。',
    courses: ['excel-functions', 'excel-pivot', 'word-layout', 'ppt-design'],
    price: 299,
  },
  {
    title: '漫画创作入门套餐',
    subtitle: '人物、分镜到条漫上架，一条龙',
    intro: '先学会画日系人物和表情，再学分镜与镜头语言，最后完成一部可以投稿的条漫。',
    courses: ['manga-zero', 'manga-hair', 'storyboard', 'webtoon-creation'],
    price: 399,
  },
]

/** Points each demo purchaser starts with, so that /points and /course/creditPay/{id} can be tried. */
export const DEMO_WELCOME_POINTS = 3000

/** Purchasers imported from other shops: `/ke2` logs only these in by phone. */
export const seedPurchasers = [
  { phone: '13800138000', nickname: '学员小周' },
  { phone: '13900139000', nickname: '学员阿琳' },
  { phone: '13700137000', nickname: '学员老何' },
]

/** Where a generated image lives under public/ and which URL serves it. */
export const demoImage = {
  course: (slug: string) => `/demo/courses/${slug}.webp`,
  teacher: (slug: string) => `/demo/teachers/${slug}.webp`,
  banner: (slug: string) => `/demo/banners/${slug}.webp`,
  category: (slug: string) => `/demo/categories/${slug}.webp`,
  overlay: (slug: string) => `/demo/overlays/${slug}.webp`,
}
