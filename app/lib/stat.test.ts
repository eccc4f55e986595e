import { describe, expect, it } from 'vitest'
import { sendStatWith, type BeaconDeps } from './stat.ts'

function deps(token: string | null) {
  const sent: { url: string; body: unknown }[] = []
  const d: BeaconDeps = {
    sendBeacon: (url, body) => {
      sent.push({ url, body: JSON.parse(body) })
      return true
    },
    token: () => token,
    page: () => '/vip',
  }
  return { d, sent }
}

describe('sendStat (spec 7 click statistics by beacon)', () => {
  it('sends a beacon with the position, the page and the token for a signed-in member', () => {
    const { d, sent } = deps('tok123')
    expect(sendStatWith(d, 'vipTarbar', { position: 1 })).toBe(true)
    expect(sent).toEqual([{ url: '/api/stat/vipTarbar/click', body: { position: 1, page: '/vip', token: 'tok123' } }])
  })

  it('sends nothing for an anonymous visitor (spec 6)', () => {
    const { d, sent } = deps(null)
    expect(sendStatWith(d, 'customer', { position: 3 })).toBe(false)
    expect(sent).toEqual([])
  })
})
