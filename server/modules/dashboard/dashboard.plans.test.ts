// The dashboard reads whole periods of the largest tables: each of its statements must reach them through an index
// (a condition on it, or a partial index made for the question), never by reading a table in full. Asked of
// PostgreSQL with EXPLAIN on the real statements, sequential scans disabled, so a missing index shows as a Seq
// Scan (or as an index read end to end without a condition) whatever the size of the test tables.
import { drizzle } from 'drizzle-orm/node-postgres'
import { describe, expect, it } from 'vitest'
import { schema } from '#server/db/database.ts'
import { useTestApp } from '#tests/support/app.ts'
import { createDashboardService } from './dashboard.service.ts'

const largeTables = new Set([
  'orders',
  'order_items',
  'refunds',
  'members',
  'study_progress',
  'point_entries',
  'video_media',
  'courses',
  'videos',
])
/** Partial indexes whose predicate is the whole question (no Index Cond needed). */
const partialIndexes = new Set(['video_media_failed_idx'])

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  Plans?: PlanNode[]
}

function fullReads(node: PlanNode, found: string[] = []): string[] {
  const table = node['Relation Name']
  if (table && largeTables.has(table)) {
    const type = node['Node Type']
    const indexed =
      type === 'Bitmap Heap Scan' ||
      ((type === 'Index Scan' || type === 'Index Only Scan') &&
        (node['Index Cond'] !== undefined || partialIndexes.has(node['Index Name'] ?? '')))
    if (!indexed) found.push(`${type} on ${table}${node['Index Name'] ? ` (${node['Index Name']})` : ''}`)
  }
  for (const child of node.Plans ?? []) fullReads(child, found)
  return found
}

describe('dashboard query plans', () => {
  const t = useTestApp()

  it('reads every large table through an index', async () => {
    const { pool } = t().database
    const statements: { sql: string; params: unknown[] }[] = []
    const db = drizzle({
      client: pool,
      schema,
      casing: 'snake_case',
      logger: { logQuery: (sql, params) => statements.push({ sql, params }) },
    })
    await createDashboardService({ db, now: () => new Date() }).dashboard()
    expect(statements.length).toBeGreaterThanOrEqual(8)

    const client = await pool.connect()
    try {
      await client.query('begin')
      await client.query('set local enable_seqscan = off')
      const problems: string[] = []
      for (const s of statements) {
        // As the app's connections run it: a generic plan (server/db/database.ts), which uses a partial index only
        // when its predicate is a literal in the text. Values given to EXPLAIN would be folded in as constants.
        const generic = s.params.length > 0
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (${generic ? 'generic_plan, ' : ''}format json) ${s.sql}`,
          generic ? [] : s.params,
        )
        for (const p of fullReads(rows[0]!['QUERY PLAN'][0].Plan)) problems.push(`${p}: ${s.sql}`)
      }
      expect(problems).toEqual([])
    } finally {
      await client.query('rollback')
      client.release()
    }
  })
})
