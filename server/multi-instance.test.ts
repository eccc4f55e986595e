import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { connectDatabase, type Database } from '#server/db/database.ts'
import { createWechatSimulatorState, wechatSimulator } from '#server/integrations/wechat/wechat-simulator.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import { makeTestClip } from '#tests/support/clip.ts'
import { freePort } from '#tests/support/free-port.ts'
import { makeCourse, makeMember, makeVideo, multipartFile } from '#tests/support/media-fixtures.ts'
import { TEMPLATE_DB, withDatabase } from '#tests/support/pg-url.ts'
import { startTestS3, type TestS3 } from '#tests/support/s3.ts'

/**
 * Two app processes on one database, each with its own data folder, media in S3-compatible storage: what one
 * instance writes or signs, the other serves; a job queued on one is run by the other; WeChat is asked for its
 * token and ticket once for both; a session made on one is valid on the other.
 */
const root = path.resolve(import.meta.dirname, '..')
const PUBLIC_URL = 'https://zixue.test'
const dbName = `zixue_mi_${crypto.randomBytes(5).toString('hex')}`
const adminUrl = inject('pgAdminUrl')
const databaseUrl = withDatabase(adminUrl, dbName)
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-multi-'))
fs.chmodSync(scratch, 0o755)
const clip = path.join(scratch, 'clip.mp4')

let s3: TestS3
let database: Database
let wechat: FastifyInstance
let wechatBase = ''
const wechatCalls: string[] = []

interface Instance {
  name: string
  base: string
  child: ChildProcess
  output: () => string
  exited: Promise<unknown>
}
const instances: Instance[] = []

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort()
  const dataDir = path.join(scratch, name)
  fs.mkdirSync(dataDir)
  const child = spawn(process.execPath, [path.join(root, 'tests/support/instance-server.ts')], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: 'demo',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      SEED_DEMO: 'false',
      PAYMENT_SWEEPS: 'false',
      TRANSCODE_PRESET: 'ultrafast',
      WECHAT_API_BASE: wechatBase,
      ...s3.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const instance = { name, base: `http://127.0.0.1:${port}`, child, output: () => output, exited }
  instances.push(instance)
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`${name} exited:\n${output}`)
    try {
      if ((await fetch(`${instance.base}/api/health`)).ok) return instance
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${dbName} template ${TEMPLATE_DB}`)
  await admin.end()
  database = await connectDatabase(databaseUrl, 2)
  s3 = await startTestS3()
  // WeChat, as both instances reach it: one simulator outside them, counting the calls it gets.
  wechat = Fastify({ logger: false })
  wechat.addHook('onRequest', async (request) => {
    wechatCalls.push(request.url.split('?')[0]!.replace('/sim', ''))
  })
  await wechat.register(wechatSimulator, {
    prefix: '/sim',
    appId: 'wx_simulated_app',
    appSecret: 'simulated_secret',
    redirectHosts: ['zixue.test'],
    publicBase: `${PUBLIC_URL}/sim`,
    now: () => new Date(),
    state: createWechatSimulatorState(),
  })
  wechatBase = `${await wechat.listen({ host: '127.0.0.1', port: 0 })}/sim`
  makeTestClip(clip, 8)
  // A serves requests only; B also runs the job worker: a transcode queued through A can only be B's.
  await Promise.all([startInstance('a', { JOB_WORKER: 'false' }), startInstance('b', { JOB_WORKER: 'true' })])
}, 120_000)

afterAll(async () => {
  for (const instance of instances) instance.child.kill('SIGTERM')
  await Promise.all(instances.map((i) => i.exited))
  await wechat?.close()
  await s3?.stop()
  await database?.close()
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${dbName} with (force)`)
  await admin.end()
  fs.rmSync(scratch, { recursive: true, force: true })
})

const instance = (name: 'a' | 'b') => instances.find((i) => i.name === name)!
const get = (name: 'a' | 'b', url: string, headers: Record<string, string> = {}) =>
  fetch(`${instance(name).base}${url}`, { headers, redirect: 'manual' })
const json = async <T>(res: Response) => (await res.json()) as { code: number; msg: string; data: T }

describe('two instances on one database and one object store', () => {
  let admin: Awaited<ReturnType<typeof makeMember>>
  let member: Awaited<ReturnType<typeof makeMember>>
  let video: number

  beforeAll(async () => {
    admin = await makeMember(database.db, 'admin')
    member = await makeMember(database.db, 'member')
    const course = await makeCourse(database.db)
    video = await makeVideo(database.db, course, { freeSeconds: 6 })
    await insertEntitlement(database.db, {
      memberId: member.id,
      courseId: course,
      source: 'admin',
      grantedAt: new Date(),
      expiresAt: null,
    })
  })

  it('transcodes on B what was uploaded on A, and both play it with each other’s signed URLs', async () => {
    const body = multipartFile(fs.readFileSync(clip), 'clip.mp4', 'video/mp4')
    const uploaded = await fetch(`${instance('a').base}/api/admin/videos/${video}/upload`, {
      method: 'POST',
      body: body.payload,
      headers: { ...body.headers, ...admin.headers },
    })
    expect((await json(uploaded)).code).toBe(200)
    let media: { status: string; error: string | null; poster_url: string | null } = {
      status: '',
      error: null,
      poster_url: null,
    }
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      media = (await json<{ media: typeof media }>(await get('a', `/api/admin/videos/${video}`, admin.headers))).data
        .media
      if (media.status === 'ready' || media.status === 'failed') break
      await new Promise((r) => setTimeout(r, 150))
    }
    expect(media).toMatchObject({ status: 'ready', error: null })
    // The poster B made is served by A.
    expect((await get('a', media.poster_url!)).headers.get('content-type')).toBe('image/webp')

    for (const [signer, player] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const play = await json<{ master_url: string }>(await get(signer, `/api/video/play?vid=${video}`, member.headers))
      expect(play.code).toBe(200)
      const master = await get(player, play.data.master_url)
      expect(master.status).toBe(200)
      const rendition = (await master.text()).split('\n').find((l) => l.startsWith('/media/hls/'))!
      // Each hop alternates instances: every URL one signed, the other accepts.
      const variant = await (await get(signer, rendition)).text()
      const segment = variant.split('\n').find((l) => l.startsWith('/media/hls/'))!
      const keyUrl = /URI="([^"]+)"/.exec(variant)![1]!
      const bytes = Buffer.from(await (await get(player, segment)).arrayBuffer())
      const key = Buffer.from(await (await get(signer, keyUrl)).arrayBuffer())
      expect(key).toHaveLength(16)
      const iv = Buffer.from(/IV=0x([0-9a-f]{32})/i.exec(variant)![1]!, 'hex')
      const decipher = crypto.createDecipheriv('aes-128-cbc', key, iv)
      expect(Buffer.concat([decipher.update(bytes), decipher.final()])[0]).toBe(0x47)
    }
  }, 90_000)

  it('signs JS-SDK pages on both with one token and one ticket fetched from WeChat', async () => {
    wechatCalls.length = 0
    const page = `${PUBLIC_URL}/course/1.html`
    const answers = await Promise.all(
      (['a', 'b', 'a', 'b'] as const).map(async (name) =>
        json<{ signature: string; nonceStr: string; timestamp: number }>(
          await get(name, `/api/wechat/share?url=${encodeURIComponent(page)}`),
        ),
      ),
    )
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 200])
    expect(wechatCalls).toEqual(['/cgi-bin/stable_token', '/cgi-bin/ticket/getticket'])
    const { rows } = await database.pool.query<{ value: string }>(
      "select value from wechat_credentials where name = 'wechat:wx_simulated_app:jsapi_ticket'",
    )
    for (const { data } of answers) {
      const plain = `jsapi_ticket=${rows[0]!.value}&noncestr=${data.nonceStr}&timestamp=${data.timestamp}&url=${page}`
      expect(data.signature).toBe(crypto.createHash('sha1').update(plain).digest('hex'))
    }
  })

  it('drops on B, within a second, the course page and lists that an edit through A changed', async () => {
    const course = await makeCourse(database.db, { title: '缓存课程甲', sort: 1_000_000 })
    const before = { title: '缓存课程甲', first: course }
    // Both instances cache the course page (minutes) and the first page of the list (seconds) before the edit.
    for (const name of ['a', 'b'] as const) {
      const detail = await json<{ title: string }>(await get(name, `/api/course?id=${course}`))
      expect(detail.data.title).toBe(before.title)
      const list = await json<{ list: { id: number; title: string }[] }>(await get(name, '/api/v2/course_list?limit=1'))
      expect(list.data.list[0]).toMatchObject({ id: course, title: before.title })
    }
    const edited = await fetch(`${instance('a').base}/api/admin/courses/${course}`, {
      method: 'PATCH',
      body: JSON.stringify({ title: '缓存课程乙' }),
      headers: { 'content-type': 'application/json', ...admin.headers },
    })
    expect((await json(edited)).code).toBe(200)
    const started = Date.now()
    let seenAt = 0
    for (; Date.now() - started < 1_000; await new Promise((r) => setTimeout(r, 20))) {
      const detail = await json<{ title: string }>(await get('b', `/api/course?id=${course}`))
      const list = await json<{ list: { title: string }[] }>(await get('b', '/api/v2/course_list?limit=1'))
      if (detail.data.title === '缓存课程乙' && list.data.list[0]?.title === '缓存课程乙') {
        seenAt = Date.now() - started
        break
      }
    }
    expect(seenAt, 'B shows the edit within a second').toBeGreaterThan(0)
    // The instance that wrote sees it at once.
    expect((await json<{ title: string }>(await get('a', `/api/course?id=${course}`))).data.title).toBe('缓存课程乙')
  })

  it('drops on B, within a second, the hot words and the home feed that operators changed through A', async () => {
    const send = async (method: string, url: string, payload: object) =>
      json<{ id: number }>(
        await fetch(`${instance('a').base}${url}`, {
          method,
          body: JSON.stringify(payload),
          headers: { 'content-type': 'application/json', ...admin.headers },
        }),
      )
    type Words = { list: { word: string }[] }
    type Feed = { sections: { title: string }[] }
    // Both instances cache the hot words and the home feed before the change.
    for (const name of ['a', 'b'] as const) {
      expect((await json<Words>(await get(name, '/api/hotWords'))).data.list.map((w) => w.word)).not.toContain(
        '缓存热词',
      )
      expect((await json<Feed>(await get(name, '/api/v3/index'))).data.sections.map((x) => x.title)).not.toContain(
        '缓存栏目',
      )
    }
    expect((await send('POST', '/api/admin/hot-words', { word: '缓存热词' })).code).toBe(200)
    const section = await send('POST', '/api/admin/home/sections', { kind: 'banner', title: '缓存栏目', visible: true })
    expect(section.code).toBe(200)
    const item = await send('POST', '/api/admin/home/items', {
      section_id: section.data.id,
      title: '横幅',
      image_url: '/demo/banner.webp',
      link: '/vip',
    })
    expect(item.code).toBe(200)
    const started = Date.now()
    let seenAt = 0
    for (; Date.now() - started < 1_000; await new Promise((r) => setTimeout(r, 20))) {
      const words = await json<Words>(await get('b', '/api/hotWords'))
      const feed = await json<Feed>(await get('b', '/api/v3/index'))
      if (
        words.data.list.some((w) => w.word === '缓存热词') &&
        feed.data.sections.some((x) => x.title === '缓存栏目')
      ) {
        seenAt = Date.now() - started
        break
      }
    }
    expect(seenAt, 'B shows the hot word and the home section within a second').toBeGreaterThan(0)
  })

  it('signs in on one instance and is known on the other', async () => {
    const phone = `137${crypto.randomInt(0, 1e8).toString().padStart(8, '0')}`
    const post = (name: 'a' | 'b', url: string, payload: object) =>
      fetch(`${instance(name).base}${url}`, {
        method: 'POST',
        body: JSON.stringify(payload),
        headers: { 'content-type': 'application/json' },
      })
    expect((await json(await post('a', '/api/send_code', { phone }))).code).toBe(200)
    const outbox = await json<{ list: { code: string }[] }>(await get('a', `/api/dev/outbox?phone=${phone}`))
    const login = await json<{ token: string }>(
      await post('b', '/api/login', { phone, phone_code: outbox.data.list[0]!.code, platform: 2 }),
    )
    expect(login.code).toBe(200)
    for (const name of ['a', 'b'] as const) {
      const me = await json<{ phone: string }>(await get(name, '/api/userinfo', { 'zxb-token': login.data.token }))
      expect(me.code).toBe(200)
    }
  })

  it('ends a session after a logout on one: at once there, within a second on the other, the beacon at once', async () => {
    const session = await makeMember(database.db, 'member')
    const beacon = (name: 'a' | 'b', position: number) =>
      fetch(`${instance(name).base}/api/update_play_data`, {
        method: 'POST',
        // What navigator.sendBeacon sends: text/plain JSON with the token inside.
        body: JSON.stringify({ vid: video, position, token: session.token }),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      })
    // A remembers the body token's session after the first save; both remember the header token's session.
    expect((await json(await beacon('a', 1))).code).toBe(200)
    expect((await json(await beacon('a', 2))).code).toBe(200)
    for (const name of ['a', 'b'] as const)
      expect((await json(await get(name, '/api/userinfo', session.headers))).code).toBe(200)
    const logout = await fetch(`${instance('b').base}/api/logout`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', ...session.headers },
    })
    expect((await json(logout)).code).toBe(200)
    expect((await json(await get('b', '/api/userinfo', session.headers))).code).toBe(301)
    // The saves check the session in their own statement.
    for (const name of ['a', 'b'] as const) expect((await json(await beacon(name, 3))).code).toBe(301)
    // A hears of the logout through the cache bus.
    let refused = false
    for (const end = Date.now() + 1_000; !refused && Date.now() < end; await new Promise((r) => setTimeout(r, 10)))
      refused = (await json(await get('a', '/api/userinfo', session.headers))).code === 301
    expect(refused, 'A refuses the token within a second').toBe(true)
    const { rows } = await database.pool.query<{ position: number }>(
      'select position from study_progress where member_id = $1 and video_id = $2',
      [session.id, video],
    )
    expect(rows[0]?.position).toBe(2)
  })
})
