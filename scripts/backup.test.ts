import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '#tests/support/free-port.ts'
import { runScript, startServerProcess, type ServerProcess } from '#tests/support/process.ts'

interface Body<T = Record<string, unknown>> {
  code: number
  msg: string
  data: T
}

async function call<T>(base: string, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token && { 'zxb-token': token }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as Body<T>
}

/** A real sign-in: a code by SMS (the demo's outbox), then /api/login. */
async function signIn(base: string, phone: string) {
  expect((await call(base, 'POST', '/api/send_code', undefined, { phone })).code).toBe(200)
  const outbox = await call<{ list: { code: string }[] }>(base, 'GET', `/api/dev/outbox?phone=${phone}`)
  const login = await call<{ token: string }>(base, 'POST', '/api/login', undefined, {
    phone,
    phone_code: outbox.data.list[0]!.code,
    platform: 2,
  })
  expect(login.code).toBe(200)
  return login.data.token
}

/** The master playlist, a rendition's playlist and its first segment of a video, as the player fetches them. */
async function play(base: string, token: string, videoId: number) {
  const played = await call<{ master_url: string }>(base, 'GET', `/api/video/play?vid=${videoId}`, token)
  expect(played.code).toBe(200)
  const master = new URL(played.data.master_url, base)
  const masterRes = await fetch(master)
  const masterText = await masterRes.text()
  const rendition = new URL(
    masterText.split('\n').find((l) => l && !l.startsWith('#'))!,
    master,
  )
  const renditionText = await (await fetch(rendition)).text()
  const segment = new URL(
    renditionText.split('\n').find((l) => l && !l.startsWith('#'))!,
    rendition,
  )
  const segmentRes = await fetch(segment)
  return {
    master: masterRes.status,
    masterText,
    segment: segmentRes.status,
    bytes: (await segmentRes.arrayBuffer()).byteLength,
  }
}

describe('the backup drill: seed, buy, upload, back up while running, restore into a new folder, start, check', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zixue-backup-drill-'))
  fs.chmodSync(dir, 0o755)
  const servers: ServerProcess[] = []
  afterAll(async () => {
    for (const s of servers) await s.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('brings back orders, sessions, covers and playlists', async () => {
    // The private media folder lives outside the data folder, where a plain copy of DATA_DIR would miss it.
    const first = {
      DATA_DIR: path.join(dir, 'data-a'),
      MEDIA_PRIVATE_DIR: path.join(dir, 'private-a'),
      EMBEDDED_PG_PORT: String(await freePort()),
      SEED_DEMO: 'true',
    }
    const a = await startServerProcess({ ...first, PORT: String(await freePort()) })
    servers.push(a)

    // A learner signs in and buys a demo course with a playable video, through the WeChat Pay simulator.
    const learner = await signIn(a.baseUrl, '13812345678')
    const db = new pg.Client({
      connectionString: `postgres://postgres:zixue@127.0.0.1:${first.EMBEDDED_PG_PORT}/zixue`,
    })
    await db.connect()
    const { rows } = await db.query<{ course_id: number; video_id: number }>(`
      select c.id as course_id, v.id as video_id from courses c
      join videos v on v.course_id = c.id join video_media m on m.video_id = v.id
      where c.price_fen > 0 and m.status = 'ready' and not v.is_free order by c.id, v.id limit 1`)
    await db.end()
    const { course_id: courseId, video_id: videoId } = rows[0]!
    const checkout = await call<{ order_no: string; h5_url: string }>(a.baseUrl, 'POST', '/api/pay/course', learner, {
      course_id: courseId,
      pay_method: 'wechat_h5',
    })
    expect(checkout.code).toBe(200)
    const orderNo = checkout.data.order_no
    const cashier = await fetch(`${a.baseUrl}/__sim/wechatpay/cashier/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        prepay_id: new URL(checkout.data.h5_url).searchParams.get('prepay_id')!,
        mode: 'h5',
      }),
      redirect: 'manual',
    })
    expect(cashier.status).toBeLessThan(400)
    for (let i = 0; i < 100; i++) {
      const order = await call<{ state: string }>(a.baseUrl, 'GET', `/api/orders/${orderNo}`, learner)
      if (order.data.state === 'paid') break
      await new Promise((r) => setTimeout(r, 100))
    }
    const before = await play(a.baseUrl, learner, videoId)
    expect(before.segment).toBe(200)

    // An operator, made with `npm run admin:create` while the server runs, uploads a new cover for the course.
    const made = await runScript('scripts/create-admin.ts', ['--phone', '13900001111'], first)
    expect(made.output).toContain('Created admin')
    expect(made.code).toBe(0)
    const admin = await signIn(a.baseUrl, '13900001111')
    const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png')
    const uploaded = (await (
      await fetch(`${a.baseUrl}/api/admin/images`, { method: 'POST', headers: { 'zxb-token': admin }, body: form })
    ).json()) as Body<{ url: string }>
    expect(uploaded.code).toBe(200)
    const coverUrl = uploaded.data.url
    const patched = await call(a.baseUrl, 'PATCH', `/api/admin/courses/${courseId}`, admin, { cover_url: coverUrl })
    expect(patched.code).toBe(200)
    const coverBytes = Buffer.from(await (await fetch(new URL(coverUrl, a.baseUrl))).arrayBuffer())
    expect(coverBytes.length).toBeGreaterThan(0)

    // The backup runs against the running server.
    const archive = path.join(dir, 'backups', 'drill.tar.gz')
    const backup = await runScript('scripts/backup.ts', ['--out', archive], first)
    expect(backup.output).toContain('Backup written to')
    expect(backup.code).toBe(0)
    expect(await a.stop()).toBe(0)

    // Restore into a fresh folder (and a private media folder of its own), then start there.
    const second = {
      DATA_DIR: path.join(dir, 'data-b'),
      MEDIA_PRIVATE_DIR: path.join(dir, 'private-b'),
      EMBEDDED_PG_PORT: String(await freePort()),
      SEED_DEMO: 'true',
    }
    const restored = await runScript('scripts/restore.ts', [archive], second)
    expect(restored.output).toContain('Restored the backup')
    expect(restored.code).toBe(0)
    // A second restore into the same folder is refused with one sentence.
    const again = await runScript('scripts/restore.ts', [archive], second)
    expect(again.code).toBe(1)
    expect(again.output.trim()).toMatch(/^npm run restore failed: Restore needs a fresh data folder, and .+\.$/)

    const b = await startServerProcess({ ...second, PORT: String(await freePort()) })
    servers.push(b)
    // The learner's session still answers, and the order is there, paid.
    const order = await call<{ state: string }>(b.baseUrl, 'GET', `/api/orders/${orderNo}`, learner)
    expect(order).toMatchObject({ code: 200, data: { state: 'paid' } })
    expect((await call(b.baseUrl, 'GET', '/api/userinfo', learner)).code).toBe(200)
    // The cover: the course names it and it answers with the same bytes.
    const detail = await call<{ cover_url: string }>(b.baseUrl, 'GET', `/api/admin/courses/${courseId}`, admin)
    expect(detail.data.cover_url).toBe(coverUrl)
    const cover = await fetch(new URL(coverUrl, b.baseUrl))
    expect(cover.status).toBe(200)
    expect(Buffer.from(await cover.arrayBuffer()).equals(coverBytes)).toBe(true)
    // The purchased video plays: master playlist, rendition, segment (from the restored private media).
    const after = await play(b.baseUrl, learner, videoId)
    expect(after).toMatchObject({ master: 200, segment: 200, bytes: before.bytes })
    expect(after.masterText).toContain('#EXTM3U')
    // The demo seed did not run again over the restored catalogue.
    expect(b.output()).not.toMatch(/seeded/i)
  }, 300_000)
})
