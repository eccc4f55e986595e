import type { Services } from '#server/services.ts'
import { CourseCardList } from '#server/modules/catalogue/recommend.schema.ts'
import { FavCalc, FavList, FavListQuery } from '#server/modules/favourites/favourites.schema.ts'
import { Album, PagedQuery, StudyRecord } from '#server/modules/learning/learning.schema.ts'
import { UserInfo } from '#shared/api/members.ts'

/** The first page the member pages show, as the browser asks for it. */
const FIRST_PAGE = PagedQuery.parse({ limit: '20' })
const FAVOURITE_COURSES = FavListQuery.parse({ type: 'course' })
const RECOMMENDED = 6

/**
 * The member pages' reads (docs/decisions/2026-11-26-member-session-cookie.md): for the signed-in member of the
 * session cookie, the answers of the API calls those pages make in the browser, from the same functions, shaped by
 * the same response schemas (which drop whatever the API would not show). Each page gets everything in one call.
 */
function memberPages(services: Services) {
  const { learning, favourites, recommend } = services
  return {
    /** /mine: GET /userinfo (the profile with the VIP). */
    userInfo: async (memberId: number) => UserInfo.parse(await services.userInfo(memberId)),
    /** /ke1: GET /center/my_album's first page. */
    album: async (memberId: number) => Album.parse(await learning.album(memberId, FIRST_PAGE)),
    /** /studyRecord: GET /center/study_record's first page. */
    studyRecord: async (memberId: number) => StudyRecord.parse(await learning.studyRecord(memberId, FIRST_PAGE)),
    /** /myCollection: the favourite courses, what the unowned ones cost together, and, when there are none, picks. */
    favourites: async (memberId: number) => {
      const [list, calc] = await Promise.all([favourites.list(memberId, FAVOURITE_COURSES), favourites.calc(memberId)])
      const picks = list.list.length === 0 ? await recommend.forYou(memberId, RECOMMENDED) : null
      return {
        list: FavList.parse(list),
        calc: FavCalc.parse(calc),
        recommend: picks && CourseCardList.parse(picks),
      }
    },
  }
}

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
    member: memberPages(services),
  }
}

export type PageServices = ReturnType<typeof pageServices>
