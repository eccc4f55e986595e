/**
 * The URLs of the product spec's route table (spec section 2), as written there. Shared by the unit test of
 * app/routes.ts (app/lib/route-table.test.ts) and the browser check of the running server (tests/e2e/routes.e2e.ts).
 */
const SPEC_STATIC = [
  '/',
  '/aa',
  '/ac',
  '/appLogin',
  '/boutique',
  '/customer',
  '/customerB',
  '/customerG',
  '/customerT',
  '/d',
  '/d_',
  '/headPortrait',
  '/index1',
  '/ke',
  '/ke1',
  '/ke2',
  '/ke3',
  '/mine',
  '/mp',
  '/myCollection',
  '/pa',
  '/painter',
  '/PayAmount',
  '/PaymentSuccessful',
  '/payRedirect',
  '/points',
  '/search',
  '/searchCourse',
  '/studyRecord',
  '/task',
  '/vip',
  '/vipBuy',
  '/wallet',
  '/wechatLogin',
  '/ac/final',
  '/ac/list',
  '/ac/mine',
  '/course/commentDetail',
  '/course/coursePurchase',
  '/course/question',
  '/course/systemCourse',
  '/course/systemGroup',
  '/cus/msg',
  '/cus/msg1',
  '/cus/roomMsg',
  '/customerG/user',
  '/data/follow',
  '/data/ks',
  '/data/sell',
  '/data/tt',
  '/data/wechatShop',
  '/data/wwx',
  '/data/xhs',
  '/form/1',
  '/form/2',
  '/headPortrait/dataName',
  '/home/home',
  '/home/home1',
  '/pa/create',
  '/painter/list',
  '/wallet/extension',
  '/wallet/record',
  '/workWechat/chat',
  '/workWechat/study',
] as const

/** Routes with an optional {id}: each answers with and without it. */
const SPEC_OPTIONAL_ID = [
  '/ac/detail',
  '/act/detail',
  '/act/final',
  '/act/list',
  '/act/mine',
  '/contract/see',
  '/course/creditPay',
  '/course/ks',
  '/course/pause',
  '/mine/comment',
  '/mine/commentDetail',
  '/mine/homework',
  '/vip/d',
  '/act',
  '/b',
  '/bb',
  '/bh',
  '/bk',
  '/bs',
  '/contract',
  '/course',
  '/cus',
  '/dd',
  '/dmmHcWCus',
  '/foryou',
  '/li',
  '/list',
  '/n',
  '/order',
  '/order2',
  '/order3',
  '/order4',
  '/progress',
  '/refund',
  '/s',
  '/teacher',
  '/v',
  '/work',
  '/z',
] as const

/** Routes whose {id} is required, and the spec's ".html" links. */
const SPEC_REQUIRED_ID = ['/painter/{id}', '/course/{id}.html', '/li/{id}.html', '/v/{id}.html'] as const

/**
 * Every concrete URL to request, with `ids` filling {id}: ids.course for the course-like routes (a real
 * course, so the course page answers 200), ids.teacher and ids.category where those screens look the id up.
 */
export function specUrls(ids: {
  course: number | string
  teacher: number | string
  category: number | string
  /** A course a Kuaishou SKU maps to (/course/ks/{id} is a 404 for others). */
  kuaishou?: number | string
  other?: number | string
}): string[] {
  const other = ids.other ?? 1
  const idFor = (base: string) => {
    if (base === '/teacher') return ids.teacher
    if (base === '/list') return ids.category
    if (base === '/course/ks') return ids.kuaishou ?? other
    if (['/course', '/li', '/n', '/v', '/course/creditPay'].includes(base)) return ids.course
    return other
  }
  const urls: string[] = [...SPEC_STATIC]
  for (const base of SPEC_OPTIONAL_ID) urls.push(base, `${base}/${idFor(base)}`)
  for (const pattern of SPEC_REQUIRED_ID) {
    const base = pattern.slice(0, pattern.indexOf('/{id}'))
    urls.push(pattern.replace('{id}', String(idFor(base))))
  }
  return urls
}
