import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod'
import { AppError } from './app-error.ts'
import { Codes, type CodeEntry } from './codes.ts'

/** Sends the envelope as a ready string, so no route's response schema applies to an error. */
export function sendError(reply: FastifyReply, entry: CodeEntry, msg: string = entry.msg, data: unknown = {}) {
  return reply
    .code(entry.status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ code: entry.code, msg, data }))
}

const fieldLabels: Record<string, string> = {
  phone: '手机号',
  phone_code: '验证码',
  nickname: '昵称',
}

/**
 * A malformed body's message, 「参数 手机号 不能为空」, and the field it is about: `data.field`, for a form to put the
 * message under (the message names the field in Chinese where `fieldLabels` has it).
 */
function validationError(error: FastifyError): { msg: string; field?: string } {
  if (!hasZodFastifySchemaValidationErrors(error)) return { msg: `${Codes.BadRequest.msg}：${error.message}` }
  const first = error.validation[0]
  if (!first) return { msg: Codes.BadRequest.msg }
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined
  const label = (field && fieldLabels[field]) ?? field ?? 'body'
  const missing = first.keyword === 'invalid_type' && /received undefined/.test(first.message ?? '')
  return { msg: `参数 ${label} ${missing ? '不能为空' : '格式不正确'}`, ...(field && { field }) }
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
