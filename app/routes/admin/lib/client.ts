import { getToken } from './token.ts'
import { STEP_UP_HEADER } from '#shared/staff/roles.ts'

/**
 * The console's one fetch client over the API envelope `{ code, msg, data }`: the sign-in token, a step-up proof
 * when one is live, query strings without empty values, and one error type. TanStack Query calls it (queries and
 * mutations); no screen calls fetch itself.
 */
export class ConsoleError extends Error {
  readonly code: number
  /** The API field a refusal is about (`data.field`, e.g. "original_price_fen"): its form shows the message there. */
  readonly field: string | undefined
  constructor(message: string, code: number, field?: string) {
    super(message)
    this.name = 'ConsoleError'
    this.code = code
    this.field = field
  }
  /** Signed out or the staff session ran out: sign in again. */
  get signIn() {
    return this.code === 301 || this.code === 504
  }
  get forbidden() {
    return this.code === 403
  }
  get needsStepUp() {
    return this.code === 407
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>

let proof: { value: string; until: number } | null = null

/** Remembers a step-up proof (POST /api/admin/step-up) for the actions of the next minutes. */
export function rememberStepUp(value: string, seconds: number) {
  proof = { value, until: Date.now() + (seconds - 10) * 1000 }
}

export function hasStepUp() {
  return proof !== null && proof.until > Date.now()
}

/** `/api/admin/orders?state=paid`: the query without empty values. */
function apiUrl(path: string, query: Query = {}) {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v))
  const s = qs.toString()
  return `/api${path}${s ? `?${s}` : ''}`
}

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = {}
  const token = getToken()
  if (token) h['zxb-token'] = token
  if (proof && hasStepUp()) h[STEP_UP_HEADER] = proof.value
  if (json) h['content-type'] = 'application/json'
  return h
}

async function request<T>(
  method: string,
  path: string,
  options: { query?: Query; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
) {
  let res: Response
  try {
    res = await fetch(apiUrl(path, options.query), {
      method,
      headers: { ...headers(options.body !== undefined), ...options.headers },
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      credentials: 'same-origin',
    })
  } catch {
    throw new ConsoleError('网络连接失败，请检查网络后重试', 0)
  }
  const envelope = (await res.json().catch(() => null)) as { code: number; msg: string; data: T } | null
  if (!envelope) throw new ConsoleError(`服务器开小差了（${res.status}），请稍后重试`, res.status)
  if (envelope.code !== 200) {
    const field = (envelope.data as { field?: unknown } | null)?.field
    throw new ConsoleError(envelope.msg || '请求失败', envelope.code, typeof field === 'string' ? field : undefined)
  }
  return envelope.data
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  /** `headers`: e.g. an Idempotency-Key, so a retried money action is applied once. */
  post: <T>(path: string, body: unknown = {}, headers?: Record<string, string>) =>
    request<T>('POST', path, { body, headers }),
  put: <T>(path: string, body: unknown = {}) => request<T>('PUT', path, { body }),
  patch: <T>(path: string, body: unknown = {}) => request<T>('PATCH', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** A multipart upload of one file (field "file"), e.g. POST /admin/images. */
  upload: <T>(path: string, file: Blob) => {
    const form = new FormData()
    form.append('file', file)
    return request<T>('POST', path, { form })
  },
}

/**
 * Downloads a CSV export (GET, with the token and step-up headers a link cannot send) and saves it under the
 * name the server gives.
 */
export async function download(path: string, query: Query) {
  await save(await fetchFile(apiUrl(path, query), { headers: headers(false) }))
}

/**
 * Opens a file the API answers (a signed contract's PDF) in a new tab, fetched with the token a link cannot
 * send. The tab opens first, while the click still counts, so a popup blocker lets it through.
 */
export async function openFile(path: string, type = 'application/pdf') {
  const tab = window.open('', '_blank')
  try {
    const res = await fetchFile(apiUrl(path), { headers: headers(false) }, type)
    const url = URL.createObjectURL(await res.blob())
    if (tab) tab.location.href = url
    else window.location.href = url
  } catch (e) {
    tab?.close()
    throw e
  }
}

/**
 * POSTs `body` and saves the CSV file it answers (a redeem-code batch: its codes are shown once, as this file).
 * Answers the response's headers (the new record's id).
 */
export async function downloadPost(path: string, body: unknown) {
  const res = await fetchFile(apiUrl(path), { method: 'POST', headers: headers(true), body: JSON.stringify(body) })
  await save(res)
  return res.headers
}

/** A file of `type` (CSV by default) the API answers, or the error its envelope names. */
async function fetchFile(url: string, init: RequestInit, type = 'text/csv') {
  let res: Response
  try {
    res = await fetch(url, { ...init, credentials: 'same-origin' })
  } catch {
    throw new ConsoleError('网络连接失败，请检查网络后重试', 0)
  }
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith(type)) {
    const body = (await res.json().catch(() => null)) as { code: number; msg: string } | null
    throw new ConsoleError(body?.msg ?? (type === 'text/csv' ? '导出失败' : '文件读取失败'), body?.code ?? res.status)
  }
  return res
}

async function save(res: Response) {
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv'
  const url = URL.createObjectURL(await res.blob())
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  URL.revokeObjectURL(url)
}
