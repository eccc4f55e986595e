import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod'
import { AppError } from './app-error.ts'
import { Codes, type CodeEntry } from './codes.ts'
import { fieldLabel } from '#shared/field-labels.ts'

/** Sends the envelope as a ready string, so no route's response schema applies to an error. */
export function sendError(reply: FastifyReply, entry: CodeEntry, msg: string = entry.msg, data: unknown = {}) {
  return reply
    .code(entry.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ code: entry.code, msg, data }))
}

/**
 * A malformed request's message in words for people, 「请填写手机号」 or 「价格格式不正确」, and the field it is about:
 * `data.field`, for a form to put the message under. The message names the field by its label (shared/field-labels.ts)
 * and never by its key; a field without a label gets a general sentence.
 */
function validationError(error: FastifyError): { msg: string; field?: string } {
  // Fastify's own words name the schema's keys ("querystring/page must be …"): never sent.
  if (!hasZodFastifySchemaValidationErrors(error)) return { msg: '请求的内容不完整或格式不正确' }
  const first = error.validation[0]
  if (!first) return { msg: Codes.BadRequest.msg }
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined
  const label = field && fieldLabel(field)
  const missing = first.keyword === 'invalid_type' && /received undefined/.test(first.message ?? '')
  const msg = missing
    ? label
      ? `请填写${label}`
      : '有必填的内容没有填写，请补全后重试'
    : label
      ? `${label}格式不正确`
      : field
        ? '填写的内容格式不正确，请检查后重试'
        : '请求的内容不完整或格式不正确'
  return { msg, ...(field && { field }) }
}

/** What busboy (the multipart parser) throws on a cut-off or malformed upload: the client's fault, not ours. */
const brokenMultipart =
  /^(Unexpected end of (multipart data|form)|Malformed part header|Part terminated early|Multipart: Boundary not found)/

/** One handler renders every failure as the envelope; internals are logged, never sent. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds))
      return sendError(reply, error.entry, error.message, error.data ?? {})
    }
    if (error.validation) {
      const { msg, field } = validationError(error)
      return sendError(reply, Codes.BadRequest, msg, field ? { field } : {})
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)
      return sendError(reply, Codes.PayloadTooLarge)
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415)
      return sendError(reply, Codes.UnsupportedMedia)
    if (
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      error instanceof SyntaxError
    ) {
      return sendError(reply, Codes.BadRequest, '请求内容不是有效的 JSON')
    }
    if (brokenMultipart.test(error.message ?? ''))
      return sendError(reply, Codes.BadRequest, '上传的内容不完整，请重新上传')
    if (error.statusCode === 429) return sendError(reply, Codes.TooManyRequests)
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, Codes.BadRequest)
    if (isResponseSerializationError(error))
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema')
    else request.log.error({ err: error }, 'unhandled error')
    return sendError(reply, Codes.InternalError)
  })

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, Codes.NotFound, `接口不存在：${request.method} ${request.url.split('?')[0]}`),
  )
}
