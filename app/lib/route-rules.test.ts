import { describe, expect, it } from 'vitest'
import { aliasTarget } from './aliases.ts'
import { overlayJumpHref, overlayToShow } from './overlay-rules.ts'
import {
  isChunkLoadError,
  layoutWidth,
  mayReloadForChunkError,
  overlaySeenCookie,
  showsConsultButton,
  showsOverlays,
  showsServiceButton,
  tabForPath,
} from './route-rules.ts'

describe('tabForPath (bottom tab bar)', () => {
  it.each([
    ['/', 'home'],
    ['/boutique', 'category'],
    ['/vip', 'vip'],
    ['/ke1', 'purchased'],
    ['/mine', 'mine'],
    ['/mine/', 'mine'],
    ['/Boutique', 'category'],
    ['/vip/d/3', null],
    ['/vipBuy', null],
    ['/ke', null],
    ['/ke2', null],
    ['/mine/comment/1', null],
    ['/course/1001.html', null],
    ['/index1', null],
  ])('%s → %s', (path, tab) => {
    expect(tabForPath(path)).toBe(tab)
  })
})

describe('showsServiceButton (spec 2 prefix and substring lists)', () => {
  it.each([
    // hidden: prefixes
    ['/cus', false],
    ['/cus/msg', false],
    ['/customer', false],
    ['/customerB', false],
    ['/customerG/user', false],
    ['/customerT', false],
    ['/course/systemCourse', false],
    ['/course/systemCourse?id=3', false],
    ['/course/systemGroup', false],
    ['/workWechat/chat', false],
    ['/course/question', false],
    ['/dmmHcWCus/5', false],
    ['/form/1', false],
    ['/course/pause/9', false],
    ['/refund/2', false],
    // hidden: substrings
    ['/ac', false],
    ['/ac/list', false],
    ['/act/detail/4', false],
    ['/aa', true], // an alias: it redirects to /ac, where the button hides
    ['/contract/see/1', false],
    ['/data/tt', false],
    ['/mine/data', false],
    // shown
    ['/', true],
    ['/boutique', true],
    ['/vip', true],
    ['/ke1', true],
    ['/mine', true],
    ['/course/1001.html', true],
    ['/course/coursePurchase', true],
    ['/teacher/3', true],
    ['/v/50001.html', true],
    ['/order/1', true],
  ])('%s → %s', (path, shown) => {
    expect(showsServiceButton(path)).toBe(shown)
  })
})

describe('showsOverlays (spec 9 read literally, issue 10 §4)', () => {
  it.each([
    ['/', '', {}, true],
    ['/boutique', '', {}, true],
    ['/boutique', '?cate=3', {}, true],
    ['/vip', '', {}, true],
    ['/mine', '', {}, true],
    ['/searchCourse', '?kw=ps', {}, true],
    ['/search', '', {}, true],
    ['/studyRecord', '', {}, true],
    ['/myCollection', '', {}, true],
    ['/teacher', '', {}, true],
    // "/" is a prefix: every other page too
    ['/ke', '', {}, true],
    ['/ke1', '', {}, true],
    ['/index1', '', {}, true],
    ['/order', '', {}, true],
    ['/points', '', {}, true],
    // the spec's two exceptions, and below them
    ['/vip/d', '', {}, false],
    ['/course/systemCourse', '', {}, false],
    ['/course/systemcourse', '', {}, false],
    // transactions and forms
    ['/vipBuy', '', {}, false],
    ['/course/coursePurchase', '?course_id=3', {}, false],
    ['/course/creditPay', '', {}, false],
    ['/PayAmount', '', {}, false],
    ['/PaymentSuccessful', '?order_no=1', {}, false],
    ['/payRedirect', '', {}, false],
    ['/wechatLogin', '', {}, false],
    ['/ke2', '', {}, false],
    ['/headPortrait/dataName', '', {}, false],
    ['/contract', '', {}, false],
    ['/form/1', '', {}, false],
    ['/refund', '', {}, false],
    ['/agreement/privacy', '', {}, false],
    // the operator console
    ['/admin', '', {}, false],
    ['/admin/sales/refunds', '', {}, false],
    // never with sp or a route id
    ['/course/1001.html', '', { id: '1001.html' }, false],
    ['/', '?sp=abc', {}, false],
    ['/boutique', '?sp=x1&cate=2', {}, false],
    ['/teacher/3', '', { id: '3' }, false],
    ['/teacher', '?id=3', {}, false],
    ['/mine', '', { id: undefined }, true],
  ])('%s%s %o → %s', (path, search, params, shown) => {
    expect(showsOverlays(path, search, params)).toBe(shown)
  })
})

describe('overlayToShow (the caps operators set; by default one per page view, one per session unless urgent)', () => {
  const a = { so_id: 1, so_urgent: false }
  const b = { so_id: 2, so_urgent: true }
  const c = { so_id: 3, so_urgent: false }
  const caps = { per_page: 1, per_session: 1, urgent_exempt: true, seen_days: 30 }
  const shown = (page: number, session: number) => ({ page, session })
  it.each([
    ['nothing unseen', [], shown(0, 0), caps, null],
    ['the first unseen, not the rest', [a, b, c], shown(0, 0), caps, a],
    ['nothing more this session', [a, c], shown(0, 1), caps, null],
    ['an urgent one even after another this session', [a, b, c], shown(0, 1), caps, b],
    ['no urgent one when urgent ones are not exempt', [a, b, c], shown(0, 1), { ...caps, urgent_exempt: false }, null],
    ['nothing more on this page, urgent or not', [b, c], shown(1, 1), caps, null],
    ['a second on this page when the page allows two', [c], shown(1, 1), { ...caps, per_page: 2, per_session: 3 }, c],
    ['the session’s cap counts every page', [c], shown(0, 3), { ...caps, per_page: 2, per_session: 3 }, null],
  ])('%s', (_name, unseen, count, limits, expected) => {
    expect(overlayToShow(unseen, count, limits)).toBe(expected)
  })
  it('applies issue 10 §4’s caps when none are given', () => {
    expect(overlayToShow([a, b], shown(0, 1))).toBe(b)
  })
})

describe('layoutWidth', () => {
  it.each([
    ['/', 500],
    ['/workWechat/chat', 540],
    ['/workWechat/study', 540],
    ['/mine', 500],
    ['/cus/msg', 500],
  ])('%s → %i px', (path, width) => {
    expect(layoutWidth(path)).toBe(width)
  })
})

describe('aliasTarget (routes.md aliases)', () => {
  it.each([
    ['/home/home', '', '/'],
    ['/home/home1', '', '/'],
    ['/aa', '', '/ac'],
    ['/d', '', '/ke1'],
    ['/d_', '', '/ke1'],
    ['/dd', '', '/ke1'],
    ['/dd/12', '', '/ke1'],
    ['/b', '', '/boutique'],
    ['/bb/3', '', '/boutique'],
    ['/bh', '', '/boutique'],
    ['/bk/9', '', '/boutique'],
    ['/bs', '', '/boutique'],
    ['/n/1001', '', '/course/1001'],
    ['/n/1001.html', '', '/course/1001.html'],
    ['/n', '', '/ke'],
    ['/s/abc', '', '/'],
    ['/s', '', '/'],
    ['/z/5', '', '/'],
    ['/course', '', '/ke'],
    // the query string, and so sp, survives
    ['/b', '?sp=ks01', '/boutique?sp=ks01'],
    ['/n/1001', '?sp=a&from=qr', '/course/1001?sp=a&from=qr'],
    ['/d', 'sp=x', '/ke1?sp=x'],
    ['/home/home', '?', '/'],
    // not aliases
    ['/home', '', null],
    ['/home/other', '', null],
    ['/aa/1', '', null],
    ['/course/1001', '', null],
    ['/b/1/2', '', null],
    ['/mine', '', null],
  ])('%s%s → %s', (path, search, target) => {
    expect(aliasTarget(path, search)).toBe(target)
  })
})

describe('overlayJumpHref (so_jump_type)', () => {
  it.each([
    [1, { course_id: 1001 }, '/course/1001.html'],
    [1, { course_id: '1002', course_type: 'series' }, '/course/1002.html'],
    [1, { course_id: 'x' }, null],
    [1, {}, null],
    [2, { selected: 3 }, '/boutique?cate=3'],
    [2, {}, '/boutique'],
    [4, { url: 'https://example.com/a?b=1' }, 'https://example.com/a?b=1'],
    [4, { url: 'http://example.com/' }, 'http://example.com/'],
    [4, { url: 'javascript:alert(1)' }, null],
    [4, { url: 'data:text/html,hi' }, null],
    [4, { url: '//evil.example' }, null],
    [4, { url: '' }, null],
    [3, { url: 'https://example.com' }, null],
    [null, null, null],
  ])('type %s %o → %s', (type, params, href) => {
    expect(overlayJumpHref(type, params)).toBe(href)
  })

  it('names the seen cookie after the overlay', () => {
    expect(overlaySeenCookie(12)).toBe('so_seen_12')
  })
})

describe('chunk-load failure reload guard (at most once per 60 s)', () => {
  it.each([
    [null, 1_000_000, true],
    [1_000_000 - 60_000, 1_000_000, true],
    [1_000_000 - 59_999, 1_000_000, false],
    [1_000_000 - 1, 1_000_000, false],
    [Number.NaN, 1_000_000, true],
    [2_000_000, 1_000_000, true],
  ])('last %s, now %s → %s', (last, now, may) => {
    expect(mayReloadForChunkError(last, now)).toBe(may)
  })

  it.each([
    [new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'), true],
    [new TypeError('error loading dynamically imported module'), true],
    [new TypeError('Importing a module script failed.'), true],
    [new Error('Unable to preload CSS for /assets/a.css'), true],
    [new Error('Cannot read properties of undefined'), false],
    ['boom', false],
  ])('%s → %s', (error, chunk) => {
    expect(isChunkLoadError(error)).toBe(chunk)
  })
})

describe('showsConsultButton (spec 2 consult button, issue 10 §4)', () => {
  it.each([
    ['/course/systemCourse', false, true],
    ['/course/systemGroup', false, true],
    ['/vip', false, true],
    ['/vip/d/3', false, true],
    ['/vipBuy', false, true],
    ['/course/coursePurchase', false, false],
    ['/course/coursePurchase', true, true],
    ['/PayAmount', true, true],
    ['/', true, false],
    ['/course/12.html', false, false],
    ['/mine', false, false],
  ])('%s (checkout configured: %s) → %s', (path, onCheckout, shown) => {
    expect(showsConsultButton(path, onCheckout)).toBe(shown)
  })
})
