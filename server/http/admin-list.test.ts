import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { csvRows, parseSort } from './admin-list.ts'
import { sendCsv } from './csv.ts'

describe('admin-list', () => {
  it('parses a sort key and its direction', () => {
    expect(parseSort('-created_at')).toEqual({ key: 'created_at', desc: true })
    expect(parseSort('id')).toEqual({ key: 'id', desc: false })
  })

  it('reads every row in batches, in order, up to the cap', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => i)
    const reads: [number, number][] = []
    const read = async (offset: number, limit: number) => {
      reads.push([offset, limit])
      return rows.slice(offset, offset + limit)
    }
    const all: unknown[][] = []
    for await (const r of csvRows(read, (batch) => batch.map((n) => [n]))) all.push(r)
    expect(all.map((r) => r[0])).toEqual(rows)
    expect(reads).toEqual([
      [0, 500],
      [500, 500],
      [1000, 500],
    ])
    const capped: unknown[][] = []
    for await (const r of csvRows(read, (batch) => batch.map((n) => [n]), 700)) capped.push(r)
    expect(capped).toHaveLength(700)
  })

  it('streams a CSV with a BOM, CRLF and formulas defused', async () => {
    const app = Fastify()
    app.get('/x', (_req, reply) =>
      sendCsv(
        reply,
        'things',
        ['名称', '金额'],
        (async function* () {
          yield ['=HYPERLINK("http://evil")', 1]
          yield ['普通, 带逗号', 2]
        })(),
      ),
    )
    const res = await app.inject({ method: 'GET', url: '/x' })
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.body).toBe('\uFEFF名称,金额\r\n"\'=HYPERLINK(""http://evil"")",1\r\n"普通, 带逗号",2\r\n')
    await app.close()
  })
})
