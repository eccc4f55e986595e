import type { ReactNode } from 'react'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'

/**
 * A message screen (coming soon, customer service, WeChat sign-in): the nav bar with its title, then the picture,
 * words and buttons (`children`) centred on a white page. message-screen.module.css styles its words and buttons.
 */
export function MessageScreen({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="zx-screen">
      <NavBar title={title} />
      <main className="zx-messageBody">{children}</main>
    </div>
  )
}
