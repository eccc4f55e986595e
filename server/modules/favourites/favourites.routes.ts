import { apiPlugin } from '#server/http/route.ts'
import type { FavouritesService } from './favourites.service.ts'
import {
  BATCH_MAX,
  BatchCancelBody,
  BatchCancelResponse,
  CourseFavBody,
  CourseFavQuery,
  CourseFavStateResponse,
  FavCalcResponse,
  FavListQuery,
  FavListResponse,
  VideoFavBody,
  VideoFavQuery,
  VideoFavStateResponse,
} from './favourites.schema.ts'

const toggled = (state: { favourited: boolean }) => (state.favourited ? '已收藏' : '已取消收藏')

/** Favourite courses and videos (spec 7: /course/fav, /video/fav, /center/fav, /fav/calc, /fav/batchCancel). */
export const favouritesRoutes = apiPlugin(
  { tags: ['favourites'] },
  (r, { favourites }: { favourites: FavouritesService }) => {
    r.post(
      '/course/fav',
      {
        auth: 'required',
        summary: 'Favourite a course, or un-favourite it when it already is (toggle); answers the new state',
        body: CourseFavBody,
        response: CourseFavStateResponse,
        msg: toggled,
      },
      async (request, memberId) => favourites.toggleCourse(memberId, request.body.course_id),
    )

    r.get(
      '/course/fav',
      {
        summary: 'Whether the signed-in member favourited a course (false for anonymous visitors)',
        querystring: CourseFavQuery,
        response: CourseFavStateResponse,
      },
      async (request, memberId) => favourites.courseState(memberId, request.query.course_id),
    )

    r.post(
      '/video/fav',
      {
        auth: 'required',
        summary: 'Favourite a video, or un-favourite it (toggle); answers the new state',
        body: VideoFavBody,
        response: VideoFavStateResponse,
        msg: toggled,
      },
      async (request, memberId) => favourites.toggleVideo(memberId, request.body.vid),
    )

    r.get(
      '/video/fav',
      {
        summary: 'Whether the signed-in member favourited a video (false for anonymous visitors)',
        querystring: VideoFavQuery,
        response: VideoFavStateResponse,
      },
      async (request, memberId) => favourites.videoState(memberId, request.query.vid),
    )

    r.get(
      '/center/fav',
      {
        auth: 'required',
        summary: "The member's favourite courses or videos, newest first, paged by cursor",
        querystring: FavListQuery,
        response: FavListResponse,
      },
      async (request, memberId) => favourites.list(memberId, request.query),
    )

    r.get(
      '/fav/calc',
      {
        auth: 'required',
        summary: 'Favourited paid courses the member does not own yet: how many and their total price (fen)',
        response: FavCalcResponse,
      },
      async (_request, memberId) => favourites.calc(memberId),
    )

    r.post(
      '/fav/batchCancel',
      {
        auth: 'required',
        summary: `Un-favourite several courses and/or videos at once (at most ${BATCH_MAX} of each)`,
        body: BatchCancelBody,
        response: BatchCancelResponse,
        msg: '已取消收藏',
      },
      async (request, memberId) => favourites.batchCancel(memberId, request.body.course_ids, request.body.vids),
    )
  },
)
