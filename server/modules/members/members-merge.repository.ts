import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

export interface MergeCandidate {
  id: number
  phone: string | null
  role: 'member' | 'staff' | 'admin'
  nickname: string
  avatarUrl: string | null
  wxOpenid: string | null
  wxUnionid: string | null
  mergedIntoId: number | null
}

/**
 * Both members' rows; with `lock`, locked for the transaction in id order (two merges of the same pair cannot
 * deadlock).
 */
export async function lockMembers(tx: DbOrTx, ids: number[], lock = true): Promise<Map<number, MergeCandidate>> {
  const result = await tx.execute<{
    id: number
    phone: string | null
    role: MergeCandidate['role']
    nickname: string
    avatar_url: string | null
    wx_openid: string | null
    wx_unionid: string | null
    merged_into_id: number | null
  }>(sql`
    select id, phone,
      case when exists (select 1 from member_roles r where r.member_id = members.id and r.role = 'admin') then 'admin'
        when exists (select 1 from member_roles r where r.member_id = members.id) then 'staff' else 'member' end as role,
      nickname, avatar_url, wx_openid, wx_unionid, merged_into_id from members
    where id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by id ${lock ? sql`for update` : sql``}`)
  return new Map(
    result.rows.map((r) => [
      r.id,
      {
        id: r.id,
        phone: r.phone,
        role: r.role,
        nickname: r.nickname,
        avatarUrl: r.avatar_url,
        wxOpenid: r.wx_openid,
        wxUnionid: r.wx_unionid,
        mergedIntoId: r.merged_into_id,
      },
    ]),
  )
}

/**
 * Folds `absorbed` into `survivor`: the absorbed member keeps its row (old records still point at it) but loses its
 * WeChat identity (cleared first: the identifiers are unique) and is marked merged; the survivor gets the WeChat
 * identifiers and the avatar it lacks. Then the log row.
 */
export async function foldMember(
  tx: DbOrTx,
  m: {
    survivor: MergeCandidate
    absorbed: MergeCandidate
    reason: string
    moved: Record<string, number>
    at: Date
  },
) {
  const { survivor, absorbed, at } = m
  await tx.execute(sql`
    update members set wx_openid = null, wx_unionid = null, phone = null, merged_into_id = ${survivor.id},
      updated_at = ${at}
    where id = ${absorbed.id}`)
  await tx.execute(sql`
    update members set
      wx_openid = coalesce(wx_openid, ${absorbed.wxOpenid}),
      wx_unionid = coalesce(wx_unionid, ${absorbed.wxUnionid}),
      avatar_url = coalesce(avatar_url, ${absorbed.avatarUrl}),
      updated_at = ${at}
    where id = ${survivor.id}`)
  await tx.execute(sql`
    insert into member_merges (survivor_id, absorbed_id, reason, moved, created_at)
    values (${survivor.id}, ${absorbed.id}, ${m.reason}, ${JSON.stringify(m.moved)}::jsonb, ${at})`)
}
