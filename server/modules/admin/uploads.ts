import type { FastifyRequest } from 'fastify'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { AdminImageRules } from './admin.service.ts'

/** The multipart field "file" of an operator's upload, at most `maxBytes` (400 without one). */
export async function filePart(request: FastifyRequest, maxBytes: number) {
  if (!request.isMultipart())
    throw new AppError(Codes.BadRequest, '请用 multipart/form-data 上传文件', { field: 'file' })
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } })
  if (!part || part.fieldname !== 'file') {
    part?.file.resume()
    throw new AppError(Codes.BadRequest, '请选择要上传的文件', { field: 'file' })
  }
  return part
}

/** An uploaded image (field "file", at most AdminImageRules.maxBytes) in memory; ImageTooLarge (451) when larger. */
export async function imagePart(request: FastifyRequest) {
  const part = await filePart(request, AdminImageRules.maxBytes)
  try {
    return await part.toBuffer()
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Codes.ImageTooLarge)
    throw err
  }
}
