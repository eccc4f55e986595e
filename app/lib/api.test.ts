import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, createApi, type ApiDeps } from './api.ts'

type FetchArgs = [string, RequestInit]

function envelope(code: number, data: unknown = {}, msg = 'ok', status = 200) {
  return new Response(JSON.stringify({ code, msg, data }), { status, headers: { 'content-type': 'application/json' } })
}

function setup(
  overrides: Partial<ApiDeps> = {},
  respond: (url: string, init: RequestInit) => Promise<Response> = async () => envelope(200, { ok: 1 }),
) {
  const fetch = vi.fn((url: string, init: RequestInit) => respond(url, init))
  const getToken = vi.fn<() => string | null>(() => null)
  const deps = {
    fetch: fetch as unknown as typeof globalThis.fetch,
    getToken,
    getSp: vi.fn(() => null as string | null),
    pageUrl: () => 'https://zixue.example/course/1001.html?sp=ks01',
    pagePath: () => '/course/1001.html?sp=ks01',
    notify: vi.fn(),
    onLoginRequired: vi.fn(),
    ...overrides,
  }
  const api = createApi(deps)
  const call = (i = 0) => {
    const args = fetch.mock.calls[i] as unknown as FetchArgs
    return { url: new URL(args[0], 'https://zixue.example'), init: args[1] }
  }
  return { api, deps, fetch, call, getToken }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('request wrapper: what it sends (spec 7)', () => {
  it('GETs by default under /api with the data as query parameters, credentials and JSON accepted', async () => {
    const { api, call } = setup()
    await api.get('/v2/course_list', { cate_id: 3, sort: 'new', empty: undefined, nothing: null })
    const { url, init } = call()
    expect(init.method).toBe('GET')
    expect(url.pathname).toBe('/api/v2/course_list')
    expect(Object.fromEntries(url.searchParams)).toEqual({ cate_id: '3', sort: 'new' })
    expect(init.body).toBeUndefined()
    expect(init.credentials).toBe('include')
    expect((init.headers as Record<string, string>).Accept).toBe('application/json')
  })

  it.each(['POST', 'PUT', 'PATCH'] as const)('sends a %s payload as a JSON UTF-8 body', async (method) => {
    const { api, call } = setup()
    const payload = { phone: '13800138000', n: 1 }
    if (method === 'POST') await api.post('/send_code', payload)
    else if (method === 'PUT') await api.put('/send_code', payload)
    else await api.patch('/send_code', payload)
    const { url, init } = call()
    expect(init.method).toBe(method)
    expect(url.search).toBe('')
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(init.body as string)).toEqual(payload)
  })

  it('sends DELETE data as query parameters', async () => {
    const { api, call } = setup()
    await api.delete('/fav', { id: 7 })
    expect(call().url.searchParams.get('id')).toBe('7')
    expect(call().init.body).toBeUndefined()
  })

  it('adds ZXB-Token only when logged in', async () => {
    const { api, getToken, call } = setup()
    await api.get('/userinfo')
    expect((call(0).init.headers as Record<string, string>)['ZXB-Token']).toBeUndefined()
    getToken.mockReturnValue('tok_123')
    await api.get('/userinfo')
    expect((call(1).init.headers as Record<string, string>)['ZXB-Token']).toBe('tok_123')
  })

  it('adds the extra headers a call asks for, such as an Idempotency-Key', async () => {
    const { api, call } = setup({ getToken: () => 'tok_123' })
    await api.post('/pay/course', { course_id: 1001 }, { headers: { 'Idempotency-Key': 'k-1' } })
    const headers = call().init.headers as Record<string, string>
    expect(headers['Idempotency-Key']).toBe('k-1')
    expect(headers['ZXB-Token']).toBe('tok_123')
  })

  it('adds sp and url to every payload when the visit has an sp', async () => {
    const { api, call } = setup({ getSp: () => 'ks01' })
    await api.get('/v3/index', { a: 1 })
    await api.post('/login', { phone: '13800138000' })
    await api.get('/hotWords')
    expect(Object.fromEntries(call(0).url.searchParams)).toEqual({
      a: '1',
      sp: 'ks01',
      url: 'https://zixue.example/course/1001.html?sp=ks01',
    })
    expect(JSON.parse(call(1).init.body as string)).toEqual({
      phone: '13800138000',
      sp: 'ks01',
      url: 'https://zixue.example/course/1001.html?sp=ks01',
    })
    expect(call(2).url.searchParams.get('sp')).toBe('ks01')
  })

  it('adds neither sp nor url without an sp', async () => {
    const { api, call } = setup()
    await api.post('/login', { phone: '1' })
    expect(JSON.parse(call().init.body as string)).toEqual({ phone: '1' })
  })

  it('sends FormData as it is, with sp and url in the query and no JSON content type', async () => {
    const { api, call } = setup({ getSp: () => 'ks01' })
    const form = new FormData()
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'a.png')
    await api.post('/uploadImage', form)
    const { url, init } = call()
    expect(init.body).toBe(form)
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined()
    expect(url.searchParams.get('sp')).toBe('ks01')
  })
})

describe('request wrapper: what it does with answers (spec 8, and better)', () => {
  it('returns data for body code 200', async () => {
    const { api, deps } = setup({}, async () => envelope(200, { list: [1, 2] }))
    await expect(api.get('/x')).resolves.toEqual({ list: [1, 2] })
    expect(deps.notify).not.toHaveBeenCalled()
  })

  it.each([301, 504])(
    'on body code %i forgets the login and asks for it again with the current path, without a toast',
    async (code) => {
      const { api, deps } = setup({}, async () => envelope(code, {}, '请先登录'))
      const error = await api.get('/userinfo').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect(error).toMatchObject({ kind: 'login', code })
      expect(deps.onLoginRequired).toHaveBeenCalledWith('/course/1001.html?sp=ks01')
      expect(deps.notify).not.toHaveBeenCalled()
    },
  )

  it('toasts the server message for another body code and throws it with the code', async () => {
    const { api, deps } = setup({}, async () => envelope(405, {}, '验证码错误'))
    await expect(api.post('/login', {})).rejects.toMatchObject({ kind: 'business', code: 405, message: '验证码错误' })
    expect(deps.notify).toHaveBeenCalledWith('验证码错误')
    expect(deps.onLoginRequired).not.toHaveBeenCalled()
  })

  it('falls back to "请求错误" when the failure has no message', async () => {
    const { api, deps } = setup({}, async () => envelope(409, {}, ''))
    await expect(api.get('/x')).rejects.toBeInstanceOf(ApiError)
    expect(deps.notify).toHaveBeenCalledWith('请求错误')
  })

  it('returns {} instead of throwing with emptyOnError (the spec’s original behaviour)', async () => {
    const { api, deps } = setup({}, async () => envelope(409, {}, '操作冲突'))
    await expect(api.get('/x', undefined, { emptyOnError: true })).resolves.toEqual({})
    expect(deps.notify).toHaveBeenCalledWith('操作冲突')
  })

  it('stays quiet when asked, leaving the message to the caller', async () => {
    const { api, deps } = setup({}, async () => envelope(401, {}, '手机号格式错误'))
    await expect(api.post('/send_code', {}, { quiet: true })).rejects.toMatchObject({
      code: 401,
      message: '手机号格式错误',
    })
    expect(deps.notify).not.toHaveBeenCalled()
  })

  it('toasts the envelope message of a non-2xx answer', async () => {
    const { api, deps } = setup({}, async () => envelope(429, {}, '操作太频繁，请稍后再试', 429))
    await expect(api.post('/send_code', {})).rejects.toMatchObject({ kind: 'http', status: 429, code: 429 })
    expect(deps.notify).toHaveBeenCalledWith('操作太频繁，请稍后再试')
  })

  it('names the status of a non-2xx answer without a body', async () => {
    const { api, deps } = setup({}, async () => new Response('<html>Bad gateway</html>', { status: 502 }))
    await expect(api.get('/x')).rejects.toMatchObject({ kind: 'http', status: 502 })
    expect(deps.notify).toHaveBeenCalledWith('服务器开小差了（502），请稍后重试')
  })

  it('says the network failed when fetch rejects', async () => {
    const { api, deps } = setup({}, async () => Promise.reject(new TypeError('Failed to fetch')))
    await expect(api.get('/x')).rejects.toMatchObject({ kind: 'network' })
    expect(deps.notify).toHaveBeenCalledWith('网络不给力，请稍后重试')
  })

  it('treats a 200 answer that is not an envelope as a failed request', async () => {
    const { api, deps } = setup({}, async () => new Response('not json', { status: 200 }))
    await expect(api.get('/x')).rejects.toMatchObject({ kind: 'invalid' })
    expect(deps.notify).toHaveBeenCalledWith('请求错误')
  })

  it('gives up after 12 s and says so', async () => {
    vi.useFakeTimers()
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    const { api, deps } = setup({}, hang)
    const pending = api.get('/slow').catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(11_999)
    expect(deps.notify).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(pending).resolves.toMatchObject({ kind: 'timeout', message: '请求超时，请稍后重试' })
    expect(deps.notify).toHaveBeenCalledWith('请求超时，请稍后重试')
  })

  it('stays silent when the caller cancels', async () => {
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    const { api, deps } = setup({}, hang)
    const controller = new AbortController()
    const pending = api.get('/x', undefined, { signal: controller.signal }).catch((e: unknown) => e)
    controller.abort()
    await expect(pending).resolves.toMatchObject({ kind: 'aborted' })
    expect(deps.notify).not.toHaveBeenCalled()
  })

  it('offers a typed result that never throws', async () => {
    const { api } = setup({}, async () => envelope(406, {}, '验证码已失效，请重新获取'))
    const result = await api.request<{ token: string }>('POST', '/login', {}, { quiet: true })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe(406)
  })
})
