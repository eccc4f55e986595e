import { describe, expect, it } from 'vitest'
import { shareLink } from './wechat-share.ts'

describe('shareLink (issue 10 §3: the sharer’s sp in the shared card)', () => {
  it('puts the signed-in sharer’s id as sp and drops WeChat’s one-time parameters and the fragment', () => {
    expect(
      shareLink('https://zixue.test/course/3.html?sp=old&code=c&state=s&loginCallback=false#top', 100004, 'x'),
    ).toBe('https://zixue.test/course/3.html?sp=100004')
  })

  it('keeps the visit’s sp for an anonymous sharer, and adds none when there is none', () => {
    expect(shareLink('https://zixue.test/vip', null, 'camp-7')).toBe('https://zixue.test/vip?sp=camp-7')
    expect(shareLink('https://zixue.test/vip', null, null)).toBe('https://zixue.test/vip')
  })
})
