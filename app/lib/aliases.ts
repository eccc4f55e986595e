/**
 * The alias URLs of routes.md, apart from route-rules.ts because only the alias routes need them (they load with
 * routes/aliases/redirect.tsx, not with every page: issue 11 §4). Tested from a table in route-rules.test.ts.
 */

import { normalise } from './route-rules.ts'

/**
 * Where the alias URLs of routes.md go. Returns the target path with the original query string (so `sp` and the
 * like survive), or null when the path is not an alias.
 */
export function aliasTarget(pathname: string, search = ''): string | null {
  const path = normalise(pathname)
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : ''
  const parts = path.split('/').filter(Boolean)
  const [first, second, ...rest] = parts
  if (rest.length > 0) return null
  const id = second ? decodeURIComponent(second) : undefined
  let target: string | null = null
  switch (first) {
    case undefined:
      return null
    case 'home':
      if (id === 'home' || id === 'home1') target = '/'
      break
    case 'aa':
      if (!id) target = '/ac'
      break
    case 'd':
    case 'd_':
      if (!id) target = '/ke1'
      break
    case 'dd':
      target = '/ke1'
      break
    case 'b':
    case 'bb':
    case 'bh':
    case 'bk':
    case 'bs':
      target = '/boutique'
      break
    case 'n':
      target = id ? `/course/${encodeURIComponent(id)}` : '/ke'
      break
    case 'course':
      // "/course" with its optional id left out: the list of all courses.
      if (!id) target = '/ke'
      break
    case 's':
    case 'z':
      target = '/'
      break
  }
  return target === null ? null : `${target}${query}`
}
