import { Outlet } from 'react-router'
import { TabBar } from '#app/components/tab-bar/tab-bar.tsx'
import styles from './layout.module.css'

/** The layout of the five tab screens: the screen, with room at the bottom for the fixed tab bar. */
export default function TabsLayout() {
  return (
    <div className={styles.screen}>
      <Outlet />
      <TabBar />
    </div>
  )
}
