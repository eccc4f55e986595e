import { emptyEnvelope } from '#server/http/envelope.ts'
import { adminPlugin } from '#server/http/route.ts'
import {
  HomeItemCreate,
  HomeItemPatch,
  HomeOrder,
  HomeSectionCreate,
  HomeSectionListQuery,
  HomeSectionPatch,
} from '#shared/api/admin-home.ts'
import { IdParams } from '#shared/api/params.ts'
import {
  AdminHomeItemListResponse,
  AdminHomeItemResponse,
  AdminHomeSectionListResponse,
  AdminHomeSectionResponse,
} from './home.schema.ts'
import type { HomeAdmin } from './home.service.ts'

/**
 * The home feed in the operators' console (under /api/admin/home/): sections and their items (banners, shortcuts,
 * courses), their order, and publishing (a section's `visible`). Learners see a change on their next home page.
 */
export const adminHomeRoutes = adminPlugin(
  { read: 'catalogue.read', write: 'marketing.edit' },
  (r, { home }: { home: HomeAdmin }) => {
    // Permission: operator (the home feed).
    r.get(
      '/admin/home/sections',
      {
        summary: "A feed's sections, hidden ones too, in order",
        querystring: HomeSectionListQuery,
        response: AdminHomeSectionListResponse,
      },
      async ({ query }) => home.sections(query.feed),
    )
    r.post(
      '/admin/home/sections',
      {
        summary: 'Add a section at the end of a feed (hidden until published)',
        body: HomeSectionCreate,
        response: AdminHomeSectionResponse,
      },
      async ({ body }) => home.createSection(body),
    )
    r.patch(
      '/admin/home/sections/:id',
      {
        summary: "Change a section's texts or more link, or publish / unpublish it (visible)",
        params: IdParams,
        body: HomeSectionPatch,
        response: AdminHomeSectionResponse,
      },
      async ({ params, body }) => home.updateSection(params.id, body),
    )
    r.delete(
      '/admin/home/sections/:id',
      { summary: 'Delete a section with its items', params: IdParams, response: emptyEnvelope },
      async ({ params }) => home.deleteSection(params.id),
    )
    r.post(
      '/admin/home/sections/order',
      {
        summary: "Put a feed's sections in this order (every section of the feed, once)",
        querystring: HomeSectionListQuery,
        body: HomeOrder,
        response: AdminHomeSectionListResponse,
      },
      async ({ query, body }) => home.orderSections(query.feed, body),
    )

    r.get(
      '/admin/home/sections/:id/items',
      { summary: "A section's items in order", params: IdParams, response: AdminHomeItemListResponse },
      async ({ params }) => home.items(params.id),
    )
    r.post(
      '/admin/home/items',
      {
        summary: 'Add an item at the end of a section: a course, or a banner / shortcut (image, title, link)',
        body: HomeItemCreate,
        response: AdminHomeItemResponse,
      },
      async ({ body }) => home.createItem(body),
    )
    r.patch(
      '/admin/home/items/:id',
      {
        summary: "Change a banner's or shortcut's image, title or link",
        params: IdParams,
        body: HomeItemPatch,
        response: AdminHomeItemResponse,
      },
      async ({ params, body }) => home.updateItem(params.id, body),
    )
    r.delete(
      '/admin/home/items/:id',
      { summary: 'Remove an item', params: IdParams, response: emptyEnvelope },
      async ({ params }) => home.deleteItem(params.id),
    )
    r.post(
      '/admin/home/sections/:id/items/order',
      {
        summary: "Put a section's items in this order (every item once)",
        params: IdParams,
        body: HomeOrder,
        response: AdminHomeItemListResponse,
      },
      async ({ params, body }) => home.orderItems(params.id, body),
    )
  },
)
