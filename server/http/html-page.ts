import { escapeHtml } from './escape-html.ts'

/**
 * A page the server writes itself (the payment, platform and WeChat simulators, the development SMS outbox): zh-CN,
 * sized for a phone (`cover`: drawn under the notch too, for pages that pad by the safe area), never indexed, with
 * the site's icon, the escaped `title`, the page's own `css` and its `body` (HTML as given).
 */
export function htmlPage(page: { title: string; css: string; body: string; cover?: boolean }) {
  const viewport = `width=device-width,initial-scale=1${page.cover ? ',viewport-fit=cover' : ''}`
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="${viewport}">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<title>${escapeHtml(page.title)}</title>
<style>${page.css}</style>
</head>
<body>${page.body}</body>
</html>`
}
