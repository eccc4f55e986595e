import { describe, expect, it } from 'vitest'
import { isPublicPage } from './web.ts'

describe('isPublicPage (pages whose HTML is cached a few seconds)', () => {
  it.each([
    '/',
    '/?sp=ks01',
    '/boutique',
    '/boutique?cate=3',
    '/ke',
    '/index1',
    '/list/3',
    '/course/1001.html',
    '/course/1001',
    '/course/1001.html?sp=a',
    '/teacher/2',
    '/foryou',
    '/foryou/3',
    '/vip',
    '/vip?sp=a',
  ])('caches %s', (url) => expect(isPublicPage(url)).toBe(true))

  it.each([
    '/mine',
    '/ke1',
    '/course/1001.html.data',
    '/course/systemCourse',
    '/v/50001.html',
    '/course/coursePurchase?course_id=1',
    '/api/v3/index',
    '/teacher',
    '/boutiques',
    '/x/../',
    '/foryou/3.data',
    '/foryoux',
    '/vipBuy',
    '/vip/d/1',
    '/vip.data',
  ])('renders %s every time', (url) => expect(isPublicPage(url)).toBe(false))
})
