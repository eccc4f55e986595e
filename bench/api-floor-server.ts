// The floor of bench/api-floor.ts: a bare Fastify server (no plugin, no hook, no schema) that answers a member's
// favourites page (GET /api/center/fav?type=course) with the statement the app runs for it (the page of favourites,
// with which of those courses the member owns), through the app's own repository and pool, and sends
// the answer the app gave that member (captured by the bench, so both send the same bytes). What the app costs
// beyond this is its own: hooks, validation, sessions, cards, serialisation.
// Env: DATABASE_URL, PORT, ANSWERS (a JSON file: { [token]: { memberId, body } }).
import fs from 'node:fs'
import Fastify from 'fastify'
import { connectDatabase } from '#server/db/database.ts'
import { listFavourites } from '#server/modules/favourites/favourites.repository.ts'

const answers = JSON.parse(fs.readFileSync(process.env.ANSWERS!, 'utf8')) as Record<
  string,
  { memberId: number; body: string }
>
const database = await connectDatabase(process.env.DATABASE_URL!)
const app = Fastify()

app.get('/api/center/fav', async (request, reply) => {
  const answer = answers[String(request.headers['zxb-token'])]
  if (!answer) return reply.code(401).send({ code: 301, msg: '请先登录', data: {} })
  await listFavourites(database.db, answer.memberId, 'course', undefined, 21, new Date())
  return reply.type('application/json; charset=utf-8').send(answer.body)
})
app.get('/api/health', async () => ({ code: 200, msg: 'ok', data: {} }))

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0))
})
