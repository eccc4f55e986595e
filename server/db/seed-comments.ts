import { and, eq, inArray, sql } from 'drizzle-orm'
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

/**
 * What learners say about the three courses most people learn, by course title: each remark is about the course it
 * is put on (its lessons, its tools), never a general one moved between courses.
 */
export const seedRemarks: Readonly<Record<string, readonly string[]>> = {
  'Excel 一键美化表格': [
    '跟着改了一遍部门月报，统一字体、隔行填色之后清爽多了，领导都问是不是换了模板。',
    '条件格式那一步太实用了，以前超标的数字都是手动标红。',
    '一节课就讲完，节奏很快，建议配一份练习表格跟着做。',
  ],
  剪映手机剪辑从入门到精通: [
    '音乐卡点那节跟着做了一遍，发到朋友圈好多人问怎么剪的。',
    '自动字幕省了太多时间，字幕样式也终于调得好看了。',
    '老师的节奏刚好，下班路上用手机看一节，回家就能剪。',
  ],
  '10 分钟掌握 PS 高频快捷键': [
    '按场景讲快捷键比背表格好记多了，跟着练习文件练了两遍就顺手了。',
    '切换画笔大小和隐藏参考线的快捷键天天在用，操作速度真的翻倍。',
    '免费课也讲得这么用心，希望出一节 Illustrator 快捷键。',
  ],
}

/** Adds the commenters, their comments on the courses the remarks are about and the likes between them. */
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
  const titles = Object.keys(seedRemarks)
  const found = await db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(and(eq(courses.status, 'published'), inArray(courses.title, titles)))
  for (const [place, title] of titles.entries()) {
    const course = found.find((c) => c.title === title)
    if (!course) throw new Error(`seed: no published course ${title} for its comments`)
    for (const [i, content] of seedRemarks[title]!.entries()) {
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
