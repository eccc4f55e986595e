// How long writing an API answer takes: zod's check and JSON.stringify (fastify-type-provider-zod, what the app
// used until 2026-11-29) against the writer compiled from the same schema (server/http/serializer.ts), on answers
// the size the hot reads send: a favourites page of 10, a course list page of 20, a search page of 20 with
// highlights. In process, one schema at a time, the two alternating; medians of 5 rounds. `npm run bench:writers`.
import { isDeepStrictEqual } from 'node:util'
import os from 'node:os'
import { createSerializerCompiler } from '#server/http/serializer.ts'
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'
import { CourseListResponse } from '#server/modules/catalogue/catalogue.schema.ts'
import { SearchResponse } from '#server/modules/catalogue/search.schema.ts'
import { FavListResponse } from '#server/modules/favourites/favourites.schema.ts'

const rounds = 5
const perRound = Number(process.env.BENCH_ANSWERS ?? 20_000)

const card = (i: number) => ({
  id: 100_000 + i,
  type: 'series',
  title: `水彩风景入门：从调色到构图的 ${i} 堂课`,
  subtitle: '零基础也能画出通透的天空和水面',
  cover: `/img/480/media/covers/course-${i}.webp`,
  price_fen: 9_900 + i,
  original_price_fen: i % 3 === 0 ? 19_900 : null,
  is_free: false,
  vip_free: i % 2 === 0,
  student_count: 1_234 + i,
  teacher_name: i % 5 === 0 ? null : '林老师',
  live_starts_at: null,
})
const ok = <T>(data: T) => ({ code: 200, msg: 'ok', data })

const answers = [
  {
    name: 'favourites page (10)',
    schema: FavListResponse,
    payload: ok({
      type: 'course',
      list: Array.from({ length: 10 }, (_, i) => ({
        fav_id: 5_000_000 + i,
        created_at: '2026-11-28T10:00:00.000Z',
        course: card(i),
        video: null,
        owned: i % 4 === 0,
      })),
      next_cursor: '2026-11-28T10:00:00.000Z_5000009',
    }),
  },
  {
    name: 'course list page (20)',
    schema: CourseListResponse,
    payload: ok({ list: Array.from({ length: 20 }, (_, i) => card(i)), next_cursor: 'eyJvIjoyMH0' }),
  },
  {
    name: 'search page (20)',
    schema: SearchResponse,
    payload: ok({
      keyword: '水彩',
      words: ['水彩'],
      list: Array.from({ length: 20 }, (_, i) => ({
        ...card(i),
        matched: ['title', 'tag'],
        highlights: {
          title: [{ start: 0, end: 2 }],
          teacher_name: [],
          tag: { text: '水彩', ranges: [{ start: 0, end: 2 }] },
          lesson: i % 2 === 0 ? null : { text: '水彩的干湿画法', ranges: [{ start: 0, end: 2 }] },
        },
      })),
      next_cursor: null,
    }),
  },
]

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** µs per answer; a full collection first, so that neither side pays for the garbage the other left. */
function measure(write: (payload: unknown) => string, payload: unknown) {
  globalThis.gc?.()
  const start = process.hrtime.bigint()
  for (let i = 0; i < perRound; i++) write(payload)
  return Number(process.hrtime.bigint() - start) / 1_000 / perRound
}

console.log(
  `Zixue answer writers — Node ${process.version}, ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)}), ` +
    `${perRound.toLocaleString('en')} answers × ${rounds} rounds, medians\n`,
)
for (const { name, schema, payload } of answers) {
  const route = { schema, method: 'GET', url: '/bench', httpStatus: '200' } as const
  const zod = zodSerializerCompiler(route)
  const compiled = createSerializerCompiler({ verify: false })(route)
  if (!isDeepStrictEqual(JSON.parse(compiled(payload)), JSON.parse(zod(payload))))
    throw new Error(`${name}: the two writers do not write the same answer`)
  const runs = { zod: [] as number[], compiled: [] as number[] }
  measure(zod, payload)
  measure(compiled, payload)
  for (let r = 0; r < rounds; r++) {
    runs.zod.push(measure(zod, payload))
    runs.compiled.push(measure(compiled, payload))
  }
  const us = (side: keyof typeof runs) => median(runs[side])
  console.log(
    `  ${name.padEnd(22)} ${String(zod(payload).length).padStart(6)} bytes   zod ${us('zod').toFixed(1).padStart(5)} µs   ` +
      `compiled ${us('compiled').toFixed(1).padStart(5)} µs   compiled ÷ zod ${(us('compiled') / us('zod')).toFixed(2)}×`,
  )
}
