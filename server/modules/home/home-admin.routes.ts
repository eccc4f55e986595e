import { emptyEnvelope } from '#server/http/envelope.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
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
export const adminHomeRoutes = adminPlugin(GroupAccess.storefront, (r, { home }: { home: HomeAdmin }) => {
  // Permission: operator (the home feed).
  r.records('/admin/home/sections', {
    response: AdminHomeSectionResponse,
    list: {
      summary: "A feed's sections, hidden ones too, in order",
      querystring: HomeSectionListQuery,
      response: AdminHomeSectionListResponse,
      handler: (query) => home.sections(query.feed),
    },
    create: {
      summary: 'Add a section at the end of a feed (hidden until published)',
      body: HomeSectionCreate,
      handler: (body) => home.createSection(body),
    },
    edit: {
      summary: "Change a section's texts or more link, or publish / unpublish it (visible)",
      body: HomeSectionPatch,
      handler: (id, body) => home.updateSection(id, body),
    },
    remove: {
      summary: 'Delete a section with its items',
      response: emptyEnvelope,
      handler: (id) => home.deleteSection(id),
    },
    order: {
      summary: "Put a feed's sections in this order (every section of the feed, once)",
      body: HomeOrder,
      handler: (body, query) => home.orderSections(query.feed, body),
    },
  })

  r.get(
    '/admin/home/sections/:id/items',
    { summary: "A section's items in order", params: IdParams, response: AdminHomeItemListResponse },
    async ({ params }) => home.items(params.id),
  )
  r.records('/admin/home/items', {
    response: AdminHomeItemResponse,
    create: {
      summary: 'Add an item at the end of a section: a course, or a banner / shortcut (image, title, link)',
      body: HomeItemCreate,
      handler: (body) => home.createItem(body),
    },
    edit: {
      summary: "Change a banner's or shortcut's image, title or link",
      body: HomeItemPatch,
      handler: (id, body) => home.updateItem(id, body),
    },
    remove: { summary: 'Remove an item', response: emptyEnvelope, handler: (id) => home.deleteItem(id) },
  })
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
})
