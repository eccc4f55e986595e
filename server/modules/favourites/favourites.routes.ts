import type { FastifyInstance } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { apiRoutes } from '#server/http/route.ts'
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

interface FavouritesRoutesOptions {
  favourites: FavouritesService
}

const toggled = (state: { favourited: boolean }) => (state.favourited ? '已收藏' : '已取消收藏')

/** Favourite courses and videos (spec 7: /course/fav, /video/fav, /center/fav, /fav/calc, /fav/batchCancel). */
export async function favouritesRoutes(app: FastifyInstance, opts: FavouritesRoutesOptions) {
  const { favourites } = opts
  const r = apiRoutes(app, { tags: ['favourites'] })

  r.post(
    '/course/fav',
    {
      config: { auth: 'required' },
      summary: 'Favourite a course, or un-favourite it when it already is (toggle); answers the new state',
      body: CourseFavBody,
      response: CourseFavStateResponse,
      msg: toggled,
    },
    async (request) => favourites.toggleCourse(requireRole(request).memberId, request.body.course_id),
  )

  r.get(
    '/course/fav',
    {
      summary: 'Whether the signed-in member favourited a course (false for anonymous visitors)',
      querystring: CourseFavQuery,
      response: CourseFavStateResponse,
    },
    async (request) => favourites.courseState(request.principal?.memberId ?? null, request.query.course_id),
  )

  r.post(
    '/video/fav',
    {
      config: { auth: 'required' },
      summary: 'Favourite a video, or un-favourite it (toggle); answers the new state',
      body: VideoFavBody,
      response: VideoFavStateResponse,
      msg: toggled,
    },
    async (request) => favourites.toggleVideo(requireRole(request).memberId, request.body.vid),
  )

  r.get(
    '/video/fav',
    {
      summary: 'Whether the signed-in member favourited a video (false for anonymous visitors)',
      querystring: VideoFavQuery,
      response: VideoFavStateResponse,
    },
    async (request) => favourites.videoState(request.principal?.memberId ?? null, request.query.vid),
  )

  r.get(
    '/center/fav',
    {
      config: { auth: 'required' },
      summary: "The member's favourite courses or videos, newest first, paged by cursor",
      querystring: FavListQuery,
      response: FavListResponse,
    },
    async (request) => favourites.list(requireRole(request).memberId, request.query),
  )

  r.get(
    '/fav/calc',
    {
      config: { auth: 'required' },
      summary: 'Favourited paid courses the member does not own yet: how many and their total price (fen)',
      response: FavCalcResponse,
    },
    async (request) => favourites.calc(requireRole(request).memberId),
  )

  r.post(
    '/fav/batchCancel',
    {
      config: { auth: 'required' },
      summary: `Un-favourite several courses and/or videos at once (at most ${BATCH_MAX} of each)`,
      body: BatchCancelBody,
      response: BatchCancelResponse,
      msg: '已取消收藏',
    },
    async (request) =>
      favourites.batchCancel(requireRole(request).memberId, request.body.course_ids, request.body.vids),
  )
}
