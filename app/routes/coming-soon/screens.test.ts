import type { RouteConfigEntry } from '@react-router/dev/routes'
import { describe, expect, it } from 'vitest'
import routes from '#app/routes.ts'
import { soonScreen } from './screens.ts'

function ids(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((e) => [e.id ?? e.file, ...ids(e.children ?? [])])
}

describe('coming-soon screens', () => {
  const soonIds = ids(routes).filter((id) => id.startsWith('soon:'))

  it('has words for every placeholder route', () => {
    expect(soonIds.length).toBeGreaterThan(30)
    for (const id of soonIds) expect(soonScreen(id).title, id).not.toBe('')
  })

  it('tells the URLs of one kind of screen apart', () => {
    expect(soonScreen('soon:wallet:wallet').title).toBe('我的钱包')
    expect(soonScreen('soon:homework:mine/homework/:id?').title).toBe(soonScreen('soon:homework:work/:id?').title)
  })

  it('refuses a name it does not know', () => {
    expect(() => soonScreen('soon:nothing:x')).toThrow('no coming-soon screen')
  })
})
