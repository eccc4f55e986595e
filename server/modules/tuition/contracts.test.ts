import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { contracts } from '#server/db/schema/tuition.ts'
import { outboxCode } from '#server/modules/auth/testing.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { useTestApp } from '#tests/support/app.ts'
import { api, makePlanAndTemplate, makeProgramme, offer, sign, SIGNATURE } from './testing.ts'

const run = promisify(execFile)

/** Dark pixels in the band of a binary PGM (P5) page where the contract's title is drawn (below the top margin). */
function darkPixelsInTitle(pgm: Buffer) {
  const header = pgm.toString('latin1', 0, 64).split(/\s+/)
  const [width, height] = [Number(header[1]), Number(header[2])]
  const start = pgm.length - width * height
  let dark = 0
  for (let y = Math.floor(height * 0.05); y < Math.floor(height * 0.09); y++)
    for (let x = 0; x < width; x++) if (pgm[start + y * width + x]! < 128) dark++
  return dark
}

/** The database's refusal of a change to a frozen row (drizzle wraps it; the trigger's message is the cause). */
const frozen = (err: unknown) =>
  err instanceof Error && /frozen/.test(String((err.cause as Error | undefined)?.message))

describe('contracts (issue 15 §2)', () => {
  const t = useTestApp()
  const call = api(() => t().app)

  async function offered() {
    const db = t().database.db
    const { system, staff } = await makeProgramme(db)
    const { planId, versionId } = await makePlanAndTemplate(call, staff.token, system)
    const m = await makeMember(db)
    const [row] = await db.select({ phone: members.phone }).from(members).where(eq(members.id, m.id))
    const o = await offer(call, staff.token, row!.phone!, planId, versionId)
    return { m, phone: row!.phone!, staff, contractId: o.contract_id!, enrolmentId: o.enrolment_id, versionId }
  }

  it('a published version is never edited (409, and the database refuses it too); a new version is made', async () => {
    const { staff, versionId } = await offered()
    const edit = await call('PATCH', `/api/admin/contract-versions/${versionId}`, staff.token, {
      title: '改过的标题',
      body: '改过的正文改过的正文改过的正文改过的正文改过的正文',
    })
    expect(edit.code).toBe(409)
    await expect(
      t().database.db.execute(sql`update contract_template_versions set body = 'x' where id = ${versionId}`),
    ).rejects.toSatisfy(frozen)
    const list = await call<{ list: { id: number; versions: { id: number }[] }[] }>(
      'GET',
      '/api/admin/contract-templates',
      staff.token,
    )
    const template = list.data.list.find((x) => x.versions.some((v) => v.id === versionId))!
    const v2 = await call<{ version: number; published: boolean }>(
      'POST',
      `/api/admin/contract-templates/${template.id}/versions`,
      staff.token,
      { title: '第二版', body: '第二版的合同正文，写得足够长足够长足够长。' },
    )
    expect(v2.data).toMatchObject({ version: 2, published: false })
  })

  it('shows the whole filled contract to its member only; another member gets 404', async () => {
    const { m, phone, contractId } = await offered()
    const mine = await call<{ contract: { text: string; signed: boolean } }>(
      'GET',
      `/api/contract?id=${contractId}`,
      m.token,
    )
    expect(mine.code).toBe(200)
    expect(mine.data.contract.signed).toBe(false)
    expect(mine.data.contract.text).toContain(`手机号 ${phone}`)
    expect(mine.data.contract.text).toContain('《插画系统课》')
    expect(mine.data.contract.text).toContain('总学费 3000 元')
    expect(mine.data.contract.text).toContain('定金：500 元，签约后缴纳；尾款：2500 元')
    expect(mine.data.contract.text).toContain('扣除手续费 100 元')
    const other = await makeMember(t().database.db)
    expect((await call('GET', `/api/contract?id=${contractId}`, other.token)).code).toBe(404)
  })

  it('refuses signing without a fresh SMS code, with a wrong one, and someone else’s contract', async () => {
    const { m, phone, contractId } = await offered()
    const body = { id: contractId, real_name: '张小明', agree: true, signature: SIGNATURE }
    expect((await call('POST', '/api/contract/agree', m.token, { ...body, code: '1234' })).code).toBe(406)
    expect((await call('POST', '/api/contract/send_code', m.token, {}, { remoteAddress: '10.2.2.2' })).code).toBe(200)
    const code = await outboxCode(t().app, phone, 'contract')
    const wrong = code === '0000' ? '1111' : '0000'
    expect((await call('POST', '/api/contract/agree', m.token, { ...body, code: wrong })).code).toBe(405)
    const other = await makeMember(t().database.db)
    expect((await call('POST', '/api/contract/agree', other.token, { ...body, code })).code).toBe(404)
    // A login code is not a signing code.
    expect((await call('POST', '/api/contract/agree', m.token, { ...body, agree: false, code })).code).toBe(400)
    const noSignature = await call('POST', '/api/contract/agree', m.token, {
      ...body,
      code,
      signature: 'data:image/png;base64,AAAA',
    })
    expect(noSignature).toMatchObject({ code: 400, data: { field: 'signature' } })
    const [row] = await t().database.db.select().from(contracts).where(eq(contracts.id, contractId))
    expect(row!.signedAt).toBeNull()
  })

  it('signs: freezes text, signature, time, address, user agent and phone with the PDF hash; the PDF reads back', async () => {
    const { m, phone, staff, contractId, enrolmentId } = await offered()
    const signed = await sign(() => t().app, call, m.token, phone, contractId)
    expect(signed.code, signed.msg).toBe(200)
    const [row] = await t().database.db.select().from(contracts).where(eq(contracts.id, contractId))
    expect(row).toMatchObject({ realName: '张小明', phone, sha256: signed.data.sha256 })
    expect(row!.filledText).toContain('乙方：张小明')
    expect(row!.clientIp).toBeTruthy()
    expect(row!.userAgent).toBe('lightMyRequest')
    expect(row!.refundRule).toEqual({ exit_fee_fen: 10000, study_days: 360 })
    expect(
      (await call('GET', `/api/course/bs?id=${row!.enrolmentId ? await enrolmentCourse(enrolmentId) : 0}`, m.token))
        .data,
    ).toMatchObject({ status: 'signed' })

    const res = await t().app.inject({
      method: 'GET',
      url: `/api/contract/see?id=${contractId}&download=1`,
      headers: { 'zxb-token': m.token },
    })
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toContain('attachment')
    // The CJK font carries only the contract's own characters (the whole Droid font made it about 2.4 MB).
    expect(res.rawPayload.length).toBeLessThan(200_000)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'contract-'))
    const file = path.join(dir, 'c.pdf')
    await writeFile(file, res.rawPayload)
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'])
    const text = stdout.replace(/\s+/g, '')
    expect(text).toContain('体系课学员报名合同')
    expect(text).toContain('乙方：张小明')
    expect(text).toContain(`手机号${phone}`)
    expect(text).toContain('总学费3000元')
    expect(text).toContain('签署人：张小明')
    // The glyphs are drawn, not only mapped to text: the title (CJK only) darkens the top of the rendered page.
    await run('pdftoppm', ['-gray', '-r', '40', '-f', '1', '-l', '1', '-singlefile', file, path.join(dir, 'p')])
    // (about 180 dark pixels drawn; a font subset whose CJK glyphs come out blank leaves about 20)
    expect(darkPixelsInTitle(await readFile(path.join(dir, 'p.pgm')))).toBeGreaterThan(100)

    const ok = await call('GET', `/api/admin/contracts/${contractId}/verify`, staff.token)
    expect(ok.data).toMatchObject({ valid: true, expected: signed.data.sha256, actual: signed.data.sha256 })
    // One byte changed in the stored file: verification fails.
    const stored = t().app.services.storage.private.localPath(row!.pdfKey!)!
    const bytes = await readFile(stored)
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff
    await writeFile(stored, bytes)
    const bad = await call<{ valid: boolean }>('GET', `/api/admin/contracts/${contractId}/verify`, staff.token)
    expect(bad.data.valid).toBe(false)

    // A signed contract never changes: signing again is refused, and the database refuses an update.
    const again = { id: contractId, code: '1234', real_name: '张小明', agree: true, signature: SIGNATURE }
    expect((await call('POST', '/api/contract/agree', m.token, again)).code).toBe(571)
    await expect(
      t().database.db.execute(sql`update contracts set real_name = '李四' where id = ${contractId}`),
    ).rejects.toSatisfy(frozen)
    // Another member cannot read the PDF.
    const other = await makeMember(t().database.db)
    const theirs = await t().app.inject({
      method: 'GET',
      url: `/api/contract/see?id=${contractId}`,
      headers: { 'zxb-token': other.token },
    })
    expect(theirs.json<{ code: number }>().code).toBe(404)
  })

  async function enrolmentCourse(enrolmentId: number) {
    const r = await t().database.db.execute<{ course_id: number }>(
      sql`select course_id from enrolments where id = ${enrolmentId}`,
    )
    return r.rows[0]!.course_id
  }
})
