// The app's own server entry (the same render: renderToPipeableStream, the CSP nonce, the same stream handling) and
// the context keys server/http/web.ts hands the services, the nonce and the viewer through.
export {
  default,
  handleError,
  streamTimeout,
  servicesContext,
  cspNonceContext,
  viewerContext,
} from '#app/entry.server.tsx'
