import { useMatches, type MetaArgs } from 'react-router'
import { ComingSoon, comingSoonMeta } from '#app/components/coming-soon/coming-soon.tsx'
import { soonScreen } from './screens.ts'

// Every URL whose screen is not built yet renders this module (app/routes.ts `soon(…)`); its route id names the
// screen, so the last (deepest) match is this route.

export function meta({ matches }: MetaArgs) {
  return comingSoonMeta(soonScreen(matches.at(-1)?.id))
}

export default function ComingSoonRoute() {
  return <ComingSoon screen={soonScreen(useMatches().at(-1)?.id)} />
}
