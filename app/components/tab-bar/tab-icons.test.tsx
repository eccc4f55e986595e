import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TABS } from '#app/lib/route-rules.ts'
import { TabIcon } from './tab-icons.tsx'

/** SVG's initial values of the stroke properties the icons use. */
const INITIAL = {
  fill: 'black',
  stroke: 'none',
  'stroke-width': '1',
  'stroke-linejoin': 'miter',
  'stroke-linecap': 'butt',
}
type Paint = typeof INITIAL

/** A tag's attributes by name. */
function attrs(tag: string): Record<string, string> {
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]))
}

const PROPERTIES = Object.keys(INITIAL) as (keyof Paint)[]

/** Each shape of an icon with the paint it is drawn with: its own attributes over the <svg>'s (inherited). */
function shapes(markup: string): Paint[] {
  const svg = attrs(/<svg[^>]*>/.exec(markup)?.[0] ?? '')
  return [...markup.matchAll(/<(?:path|rect|circle)\b[^>]*>/g)].map((m) => {
    const own = attrs(m[0])
    return Object.fromEntries(PROPERTIES.map((k) => [k, own[k] ?? svg[k] ?? INITIAL[k]])) as Paint
  })
}

const outline = (fill: string): Paint => ({
  fill,
  stroke: 'currentColor',
  'stroke-width': '1.8',
  'stroke-linejoin': 'round',
  'stroke-linecap': 'round',
})

/**
 * Issue 11 §3: the outline is set once on each icon's <svg> and inherited by its shapes (fewer attributes in every
 * tab page's HTML). Every shape must still be painted exactly as when each carried its own attributes, including
 * the active tabs' white details, which keep what they used to have (the home door: SVG's miter and butt).
 */
describe('tab icons', () => {
  it('paint every shape as before, inactive and active', () => {
    const painted = Object.fromEntries(
      TABS.flatMap((tab) =>
        [false, true].map((active) => [
          `${tab.key}${active ? ' active' : ''}`,
          shapes(renderToStaticMarkup(<TabIcon tab={tab.key} active={active} />)),
        ]),
      ),
    )
    const white = (over: Partial<Paint>): Paint => ({ ...outline('none'), stroke: '#fff', ...over })
    expect(painted).toEqual({
      home: [outline('none')],
      'home active': [outline('currentColor'), white({ 'stroke-linejoin': 'miter', 'stroke-linecap': 'butt' })],
      category: Array(4).fill(outline('none')),
      'category active': Array(4).fill(outline('currentColor')),
      vip: [outline('none')],
      // A single straight segment: no joins, so the inherited round join draws as the miter did; fill has no area.
      'vip active': [outline('currentColor'), { ...outline('currentColor'), stroke: '#fff' }],
      // The play triangle is a closed path: no ends, so the inherited round cap draws as the butt did.
      purchased: [outline('none'), outline('none')],
      'purchased active': [outline('currentColor'), white({ fill: '#fff' })],
      mine: [outline('none'), outline('none')],
      'mine active': [outline('currentColor'), outline('currentColor')],
    })
  })

  it('send the outline once per icon', () => {
    const markup = renderToStaticMarkup(<TabIcon tab="category" active={false} />)
    expect(markup.match(/stroke-linejoin/g)).toHaveLength(1)
  })
})
