import { Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import type { FastifyReply } from 'fastify'

/**
 * Streams rows as a CSV download named `<name>-<YYYY-MM-DD>.csv` (UTF-8 with a BOM so Excel reads Chinese, CRLF,
 * a header row; cells a spreadsheet would read as a formula get a leading apostrophe; true/false as 是/否): the
 * header, then each row as it is read, so a large export never sits in memory.
 */
export function sendCsv(reply: FastifyReply, name: string, header: string[], rows: AsyncIterable<unknown[]>) {
  const csv = stringify({
    bom: true,
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { boolean: (b) => (b ? '是' : '否') },
  })
  const source = Readable.from(
    (async function* () {
      yield header
      yield* rows
    })(),
    { objectMode: true },
  )
  source.on('error', (err) => csv.destroy(err))
  source.pipe(csv)
  const day = new Date().toISOString().slice(0, 10)
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(csv)
}
