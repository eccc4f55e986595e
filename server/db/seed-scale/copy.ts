// Streams generated rows into a table with COPY … FROM STDIN (pg-copy-streams): the fastest way to load rows that
// are made in this process, with backpressure, so memory stays flat whatever the row count.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'

/** A value of one column in COPY's text format: null is \N, dates are ISO strings, arrays are text[] literals. */
export type CopyValue = string | number | boolean | null | readonly string[]

const special = /[\\\t\n\r]/

function escapeText(s: string) {
  if (!special.test(s)) return s
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
}

function arrayLiteral(items: readonly string[]) {
  return `{${items.map((i) => `"${i.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`
}

function field(v: CopyValue) {
  if (v === null) return '\\N'
  if (typeof v === 'string') return escapeText(v)
  if (typeof v === 'number') return String(v)
  if (typeof v === 'boolean') return v ? 't' : 'f'
  return escapeText(arrayLiteral(v))
}

/** One row as a line of COPY text. */
function copyLine(values: readonly CopyValue[]) {
  let line = field(values[0]!)
  for (let i = 1; i < values.length; i++) line += '\t' + field(values[i]!)
  return line + '\n'
}

export interface CopyReport {
  table: string
  rows: number
  ms: number
}

/** About 256 KB per write: few enough writes to be cheap, small enough to keep the pipe moving. */
const CHUNK_CHARS = 96 * 1024

/**
 * COPYs the rows of `rows` into `table` (columns in that order) and reports how many went in and how long it took;
 * `onProgress` hears the running count every few seconds.
 */
export async function copyRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyValue[]>,
  onProgress?: (rows: number, ms: number) => void,
): Promise<CopyReport> {
  const started = performance.now()
  let count = 0
  let lastReport = started
  function* chunks() {
    let chunk = ''
    for (const row of rows) {
      chunk += copyLine(row)
      count++
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk
        chunk = ''
        const now = performance.now()
        if (onProgress && now - lastReport > 5000) {
          lastReport = now
          onProgress(count, now - started)
        }
      }
    }
    if (chunk) yield chunk
  }
  const sink = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`))
  await pipeline(Readable.from(chunks(), { objectMode: false }), sink)
  return { table, rows: count, ms: performance.now() - started }
}
