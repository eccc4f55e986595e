import type { Services } from '#server/services.ts'

/**
 * What the page loaders (app/, rendered on the server by server/http/web.ts) may call: the read services the
 * screens use and the client's public links. No database handle, no configuration secrets: a loader reads data
 * through the same doors as the API.
 */
export function pageServices(services: Services) {
  const { catalogue, search, home, follows, bundles, vip, learning, settings, kuaishouCourse } = services
  return {
    config: { client: services.config.client },
    catalogue,
    search,
    home,
    follows,
    bundles,
    vip,
    learning,
    settings: { service: settings.service },
    /** The /course/ks/{id} landing: the course, when it is on sale on Kuaishou. */
    kuaishouCourse: { course: kuaishouCourse.course },
  }
}

export type PageServices = ReturnType<typeof pageServices>
