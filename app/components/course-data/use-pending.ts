import { useLocation, useNavigation } from 'react-router'

/**
 * True while the router loads a new version of the current page (a filter or category changed): the screen dims
 * its list instead of showing stale results as if they were current.
 */
export function usePendingHere(): boolean {
  const navigation = useNavigation()
  const location = useLocation()
  return navigation.state === 'loading' && navigation.location.pathname === location.pathname
}
