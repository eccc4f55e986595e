import type { DbOrTx } from '#server/db/database.ts'
import { firstLessonId } from '#server/modules/catalogue/catalogue.service.ts'
import { insertPopups } from './learning.repository.ts'

/**
 * The demo's player popups, written with the demo catalogue (server/db/seed.ts): a study-group card early in the
 * first lesson of a free course, and a VIP card in every video of a paid course. The demo clips are 20–36 s
 * long, so both appear within seconds.
 */
export async function seedPlayerPopups(db: DbOrTx, idOf: (slug: string) => number) {
  const freeCourse = idOf('ps-shortcuts')
  const firstLesson = await firstLessonId(db, freeCourse)
  await insertPopups(db, [
    ...(firstLesson !== null
      ? [
          {
            videoId: firstLesson,
            atSecond: 6,
            title: '加入 PS 学习群',
            content: '和同学一起练习，老师每周答疑，群里还有整理好的快捷键清单。',
            link: '/customerG',
          },
        ]
      : []),
    {
      courseId: idOf('ps-zero'),
      atSecond: 4,
      title: '开通 VIP，好课免费学',
      content: '全站 VIP 课程免费看，年卡低至每天 8 毛钱。',
      link: '/vip',
    },
  ])
}
