import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { envelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import { ImageRules, type MediaService } from './media.service.ts'

const UploadResult = z.object({
  url: z.string().describe('/media/uploads/<year>/<random>.webp'),
  width: z.number().int(),
  height: z.number().int(),
})

/** The `file` part of a multipart request, read into memory (at most 5 MB; more is ImageTooLarge). */
async function readFilePart(request: FastifyRequest) {
  if (!request.isMultipart())
    throw new AppError(Codes.BadRequest, '请用 multipart/form-data 上传图片', { field: 'file' })
  const part = await request.file({ limits: { fileSize: ImageRules.maxBytes, files: 1 } })
  if (!part || part.fieldname !== 'file') throw new AppError(Codes.BadRequest, '请选择要上传的文件', { field: 'file' })
  try {
    return await part.toBuffer()
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Codes.ImageTooLarge)
    throw err
  }
}

/** Image uploads (avatars). */
export const mediaRoutes = apiPlugin({ tags: ['media'] }, (r, { media }: { media: MediaService }) => {
  r.post(
    '/uploadImage',
    {
      auth: 'required',
      summary: 'Upload an image (multipart field "file")',
      description:
        'JPEG, PNG or WebP, recognised by content; at most 5 MB and 25 megapixels (451); anything else 450. Re-encoded to WebP (longer side at most 1024 px) without metadata.',
      consumes: ['multipart/form-data'],
      response: envelope(UploadResult),
      msg: '上传成功',
    },
    async (request, memberId) => media.uploadImage(memberId, await readFilePart(request)),
  )
})
