import { desc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from './database.ts'
import { courses } from './schema/catalogue.ts'
import { commentLikes, comments } from './schema/comments.ts'
import { members } from './schema/members.ts'

/**
 * The demo's learners talking: a few members who comment (fixed demo phones, so a reseed finds them again), and
 * their comments and likes on the three courses most people learn. Each comment's like count is the number of its
 * like rows, as the comments module keeps it.
 */

const commenters = ['设计新手小鹿', '转行中的阿杰', '周末画画的 Mia', '电商美工老王', '财务小刘'].map(
  (nickname, i) => ({
    phone: String(19900000001 + i),
    nickname,
  }),
)

/** What learners say, by the course's place among the most learned (0: the most learned). */
const remarks: string[][] = [
  [
    '零基础跟下来没有压力，每节一个工具一个练习，做完就记住了。',
    '钢笔工具那节反复看了三遍，终于会抠图了，感谢老师！',
    '建议配套素材再多一点，其他都很好。',
  ],
  ['讲得很细，跟着做了一遍作品集里的图。', '老师的节奏刚好，适合下班后每天学一点。', '希望能出进阶课。'],
  ['第一次画完整的一幅，很有成就感。', '控水那一节太实用了。', '讲解耐心，适合完全没有基础的人。'],
]

/** Adds the commenters, their comments on the most learned courses and the likes between them. */
export async function seedComments(db: DbOrTx, now: Date) {
  const people = await db
    .insert(members)
    .values(commenters)
    .onConflictDoUpdate({
      target: members.phone,
      targetWhere: sql`${members.phone} is not null`,
      set: { nickname: sql`excluded.nickname` },
    })
    .returning({ id: members.id })
  const popular = await db
    .select({ id: courses.id })
    .from(courses)
    .where(eq(courses.status, 'published'))
    .orderBy(desc(courses.studentCount), courses.id)
    .limit(remarks.length)
  for (const [place, course] of popular.entries()) {
    for (const [i, content] of remarks[place]!.entries()) {
      const author = people[(place + i) % people.length]!.id
      // Earlier remarks get more likes: the first from everyone else, the last from one.
      const likers = people
        .map((p) => p.id)
        .filter((id) => id !== author)
        .slice(0, Math.max(1, people.length - 1 - i * 2))
      const at = new Date(now.getTime() - (place * 7 + i + 1) * 3_600_000)
      const [row] = await db
        .insert(comments)
        .values({
          memberId: author,
          courseId: course.id,
          threadMemberId: author,
          content,
          likeCount: likers.length,
          createdAt: at,
        })
        .returning({ id: comments.id })
      await db.insert(commentLikes).values(likers.map((memberId) => ({ commentId: row!.id, memberId, createdAt: at })))
    }
  }
}

/** The demo commenters' ids (tests). */
export async function commenterIds(db: DbOrTx) {
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .where(
      inArray(
        members.phone,
        commenters.map((c) => c.phone),
      ),
    )
  return rows.map((r) => r.id)
}
