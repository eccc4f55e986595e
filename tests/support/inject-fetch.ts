import type { FastifyInstance, InjectOptions } from 'fastify'

/**
 * A `fetch` that hands every call to a Fastify app in process (`app.inject`), body and headers included, so real
 * adapters reach the in-app simulators without a port: the payment adapters and the WeChat client call them
 * with it, and the payment simulators deliver their notifications with it. `onCall` sees each URL first.
 */
export function injectFetch(getApp: () => FastifyInstance, onCall?: (url: URL) => void): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    onCall?.(url)
    const body = init?.body
    const res = await getApp().inject({
      method: (init?.method ?? 'GET') as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      payload: typeof body === 'string' ? body : undefined,
    })
    const headers = new Headers()
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, String(one))
    }
    // The raw bytes: a bill archive is binary.
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers,
    })
  }
}
