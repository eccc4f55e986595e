import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { ok } from '#server/http/envelope.ts'
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

const tags = ['favourites']
const security = [{ token: [] }]

interface FavouritesRoutesOptions {
  favourites: FavouritesService
}

/** Favourite courses and videos (spec 7: /course/fav, /video/fav, /center/fav, /fav/calc, /fav/batchCancel). */
export async function favouritesRoutes(app: FastifyInstance, opts: FavouritesRoutesOptions) {
  const { favourites } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.post(
    '/course/fav',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'Favourite a course, or un-favourite it when it already is (toggle); answers the new state',
        body: CourseFavBody,
        response: { 200: CourseFavStateResponse },
      },
    },
    async (request) => {
      const state = await favourites.toggleCourse(requireRole(request).memberId, request.body.course_id)
      return ok(state, state.favourited ? '已收藏' : '已取消收藏')
    },
  )

  r.get(
    '/course/fav',
    {
      schema: {
        tags,
        security,
        summary: 'Whether the signed-in member favourited a course (false for anonymous visitors)',
        querystring: CourseFavQuery,
        response: { 200: CourseFavStateResponse },
      },
    },
    async (request) => ok(await favourites.courseState(request.principal?.memberId ?? null, request.query.course_id)),
  )

  r.post(
    '/video/fav',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'Favourite a video, or un-favourite it (toggle); answers the new state',
        body: VideoFavBody,
        response: { 200: VideoFavStateResponse },
      },
    },
    async (request) => {
      const state = await favourites.toggleVideo(requireRole(request).memberId, request.body.vid)
      return ok(state, state.favourited ? '已收藏' : '已取消收藏')
    },
  )

  r.get(
    '/video/fav',
    {
      schema: {
        tags,
        security,
        summary: 'Whether the signed-in member favourited a video (false for anonymous visitors)',
        querystring: VideoFavQuery,
        response: { 200: VideoFavStateResponse },
      },
    },
    async (request) => ok(await favourites.videoState(request.principal?.memberId ?? null, request.query.vid)),
  )

  r.get(
    '/center/fav',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: "The member's favourite courses or videos, newest first, paged by cursor",
        querystring: FavListQuery,
        response: { 200: FavListResponse },
      },
    },
    async (request) => ok(await favourites.list(requireRole(request).memberId, request.query)),
  )

  r.get(
    '/fav/calc',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'Favourited paid courses the member does not own yet: how many and their total price (fen)',
        response: { 200: FavCalcResponse },
      },
    },
    async (request) => ok(await favourites.calc(requireRole(request).memberId)),
  )

  r.post(
    '/fav/batchCancel',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: `Un-favourite several courses and/or videos at once (at most ${BATCH_MAX} of each)`,
        body: BatchCancelBody,
        response: { 200: BatchCancelResponse },
      },
    },
    async (request) =>
      ok(
        await favourites.batchCancel(requireRole(request).memberId, request.body.course_ids, request.body.vids),
        '已取消收藏',
      ),
  )
}
