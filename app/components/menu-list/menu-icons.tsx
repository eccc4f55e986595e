/** Line icons for the account menus, 22×22, currentColor. */
const paths = {
  orders: 'M6 3.5h12a1 1 0 0 1 1 1v16l-3-2-2.5 2-2.5-2-2.5 2-2.5-2v-14a1 1 0 0 1 1-1ZM9 8.5h6M9 12h6',
  points: 'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z',
  wallet: 'M4 7.5h15a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1zM4 7.5l12-4v4M16 13.5h1.5',
  favourites: 'M12 20s-7.5-4.4-7.5-10A4.2 4.2 0 0 1 12 7.6 4.2 4.2 0 0 1 19.5 10c0 5.6-7.5 10-7.5 10Z',
  record: 'M12 20.5a8.5 8.5 0 1 0 0-17 8.5 8.5 0 0 0 0 17ZM12 7.5V12l3 2',
  purchaser: 'M11 18.5a7.5 7.5 0 1 0 0-15 7.5 7.5 0 0 0 0 15ZM16.5 16.5l4 4',
  service:
    'M4.5 13v-1.5a7.5 7.5 0 0 1 15 0V13M4.5 13h2v5h-2a1 1 0 0 1-1-1v-3a1 1 0 0 1 1-1Zm15 0h-2v5h2a1 1 0 0 0 1-1v-3a1 1 0 0 0-1-1Z',
  bundles:
    'M4 8.5h16v11a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1zM3 5.5h18v3H3zM12 5.5v15M12 5.5c-1.5-3-5-3-5-.5M12 5.5c1.5-3 5-3 5-.5',
  redeem:
    'M3.5 7.5a1 1 0 0 1 1-1h15a1 1 0 0 1 1 1V10a2 2 0 0 0 0 4v2.5a1 1 0 0 1-1 1h-15a1 1 0 0 1-1-1V14a2 2 0 0 0 0-4zM14.5 6.5v11',
  profile: 'M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8ZM4.5 20.5c.8-4 3.8-6 7.5-6s6.7 2 7.5 6',
} as const

export type MenuIconName = keyof typeof paths

export function MenuIcon({ name }: { name: MenuIconName }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <path
        d={paths[name]}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}
