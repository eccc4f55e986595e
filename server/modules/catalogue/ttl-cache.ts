// The catalogue's caches are lru-cache instances made by server/http/public-cache.ts. The learning tests
// (server/modules/learning/study.test.ts and progress.test.ts, another area's files) still import clearAllCaches
// from here: delete this file once they import it from '#server/http/public-cache.ts'.
export { clearAllCaches } from '#server/http/public-cache.ts'
