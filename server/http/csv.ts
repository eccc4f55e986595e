import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { FastifyReply } from 'fastify'

/** A cell a spreadsheet would read as a formula gets a leading apostrophe (CSV injection). */
function safeCell(value: unknown) {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(value)) return `'${value}`
  return value
}

/**
 * Streams rows as a CSV download (UTF-8 with a BOM so Excel reads Chinese, CRLF): the header, then each row as it
 * is read, so a large export never sits in memory.
 */
export function sendCsv(reply: FastifyReply, filename: string, header: string[], rows: AsyncIterable<unknown[]>) {
  const csv = stringify({ bom: true, record_delimiter: 'windows', cast: { boolean: (b) => (b ? '是' : '否') } })
  const source = Readable.from(
    (async function* () {
      yield header
      for await (const row of rows) yield row.map(safeCell)
    })(),
  )
  source.on('error', (err) => csv.destroy(err))
  source.pipe(csv)
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(csv)
}
