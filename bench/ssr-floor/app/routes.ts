import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

/** The four pages bench/ssr-floor.ts compares, at the app's paths, the tab pages under a layout as in app/routes.ts. */
export default [
  layout('routes/tabs.tsx', [
    index('routes/home.tsx'),
    route('boutique', 'routes/boutique.tsx'),
    route('vip', 'routes/vip.tsx'),
  ]),
  route('course/:id', 'routes/course.tsx'),
] satisfies RouteConfig
