/**
 * The server's 404 AppError as a page loader sees it (the page bundle has its own copy of the class, so it is
 * recognised by shape, as in app/components/course-data/catalogue-loader.server.ts).
 */
export function isAppNotFound(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'AppError') return false
  return (error as { entry?: { code?: unknown } }).entry?.code === 404
}
