import crypto from 'node:crypto'

/** A multipart/form-data body with one file part, for app.inject. */
export function multipartFile(
  buffer: Buffer,
  options: { field?: string; filename?: string; contentType?: string } = {},
) {
  const boundary = `----zixue${crypto.randomBytes(8).toString('hex')}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'image.jpg'}"\r\n` +
      `Content-Type: ${options.contentType ?? 'image/jpeg'}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return {
    payload: Buffer.concat([head, buffer, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}
