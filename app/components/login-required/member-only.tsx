import type { ReactNode } from 'react'
import { Loading } from '#app/components/page-state/page-state.tsx'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import { LoginRequired } from './login-required.tsx'

/**
 * A member-only part of a screen: a spinner until the login state is known (unless the server rendered the
 * member's data), the login prompt for a visitor (`reason`, and where to go after logging in), the children for a
 * member.
 */
export function MemberOnly({
  reason,
  target,
  known,
  children,
}: {
  reason: string
  target?: string
  /** The server rendered the member's data (its session cookie): the children, until hydrated. */
  known?: boolean
  children: ReactNode
}) {
  const hydrated = useHydrated()
  const { token } = useAuth()
  if (!hydrated) return known ? children : <Loading />
  if (!token) return <LoginRequired reason={reason} target={target} />
  return children
}
