import { isRouteErrorResponse, useRevalidator } from 'react-router'
import { ErrorPage, missingOf } from '#app/components/error-page/error-page.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError } from '#app/components/page-state/page-state.tsx'

/**
 * The error state of a catalogue screen: an unknown course, category or teacher is the 404 page, saying which; anything else
 * keeps the screen's title bar and offers to try again.
 */
export function CatalogueError({ error, title, noBack = false }: { error: unknown; title: string; noBack?: boolean }) {
  const revalidator = useRevalidator()
  if (isRouteErrorResponse(error) && error.status === 404)
    return <ErrorPage status={404} detail={missingOf(error.data)} />
  return (
    <main>
      <NavBar title={title} noBack={noBack} />
      <LoadError message="内容加载失败，请检查网络后重试" onRetry={() => void revalidator.revalidate()} />
    </main>
  )
}
