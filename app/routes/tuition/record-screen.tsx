import type { ReactNode } from 'react'
import { useParams } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError } from '#app/components/page-state/page-state.tsx'

/**
 * A member's screen about one record the URL names (/contract/see/{id}, /course/pause/{id}): the nav bar, the login
 * prompt for a visitor (`reason`), then the record (`children(id)`), or `missing` when the URL names none.
 */
export function RecordScreen(props: {
  title: string
  backTo: string
  reason: string
  missing: string
  children: (id: number) => ReactNode
}) {
  const { id } = useParams()
  return (
    <main className={styles.page}>
      <NavBar title={props.title} backTo={props.backTo} />
      <MemberOnly reason={props.reason}>
        {id ? props.children(Number(id)) : <LoadError message={props.missing} />}
      </MemberOnly>
    </main>
  )
}
