import type { FastifyInstance, InjectOptions } from 'fastify'

/**
 * A `fetch` that hands each call to a Fastify app in process (`app.inject`), so the real WeChat adapter can talk to
 * the simulator in tests without a port. Only for tests.
 */
export function injectFetch(getApp: () => FastifyInstance, onCall?: (url: URL) => void): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    onCall?.(url)
    const res = await getApp().inject({
      method: (init?.method ?? 'GET') as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
    })
    const headers = new Headers()
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, String(one))
    }
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.body, {
      status: res.statusCode,
      headers,
    })
  }
}
