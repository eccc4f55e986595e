// Titles, lessons, names and comments composed from the vocabulary: varied enough that search, sorting and the
// planner's statistics see a catalogue that looks like a real one.
import type { Rng } from './random.ts'
import {
  audiences,
  chapterTails,
  commentLines,
  dayCounts,
  formats,
  givenNames,
  hooks,
  lessonAspects,
  levels,
  nicknameHeads,
  nicknameTails,
  surnames,
  teacherRoles,
  teacherTitles,
  type Topic,
  years,
} from './vocabulary.ts'

const latin = /[A-Za-z0-9+]/

/** A space between a Latin word and Chinese text that follows or precedes it ("Photoshop 人像精修"). */
function join(...parts: string[]) {
  let out = ''
  for (const p of parts) {
    if (!p) continue
    if (out && (latin.test(out.at(-1)!) || latin.test(p[0]!))) out += ' '
    out += p
  }
  return out
}

function two<T>(rng: Rng, items: readonly T[]): [T, T] {
  const a = rng.pick(items)
  let b = rng.pick(items)
  for (let i = 0; i < 3 && b === a; i++) b = rng.pick(items)
  return [a, b]
}

/** Course titles often carry a tag in front and the size of the course behind. */
const tags = ['【新课】', '【精品】', '【直播回放】', '【附素材】', '【限时】', '【入门必看】']

export function courseTitle(rng: Rng, t: Topic) {
  const tag = rng.chance(0.15) ? rng.pick(tags) : ''
  const roll = rng.next()
  const size =
    roll < 0.2
      ? `（共${rng.int(8, 120)}讲）`
      : roll < 0.3
        ? `（含${rng.int(5, 60)}个案例）`
        : roll < 0.38
          ? ` 第${rng.int(1, 6)}季`
          : ''
  return tag + coreTitle(rng, t) + size
}

function coreTitle(rng: Rng, t: Topic) {
  const tool = rng.pick(t.tools)
  const [s1, s2] = two(rng, t.subjects)
  const project = rng.pick(t.projects)
  switch (rng.int(0, 9)) {
    case 0:
      return join(tool, s1, rng.pick(hooks))
    case 1:
      return `${join(`${rng.pick(levels)}学`, tool)}：${s1}与${s2}`
    case 2:
      return `${join(tool, s1, rng.pick(formats))}（${rng.pick(years)}）`
    case 3:
      return join(`${rng.pick(dayCounts)}天搞定`, tool, s1)
    case 4:
      return join(`${rng.pick(audiences)}的`, tool, `${s1}课`)
    case 5:
      return `${s1}${rng.pick(formats)}：${join(tool, project)}${rng.pick(hooks)}`
    case 6:
      return join(tool, rng.pick(levels), rng.pick(formats))
    case 7:
      return `【${rng.pick(years)}】${join(tool, s1, s2)}全套教程`
    case 8:
      return join(tool, `${project}实战：从${s1}到${s2}`)
    default:
      return `${join(tool, s1)}·${project}${rng.pick(formats)}`
  }
}

export function courseSubtitle(rng: Rng, t: Topic) {
  const [s1, s2] = two(rng, t.subjects)
  return `${s1}、${s2}和${rng.pick(t.projects)}，${rng.pick(['跟着练就能学会', '每节课都有练习', '学完就能接单', '附赠素材和源文件', '老师答疑'])}`
}

export function courseIntro(rng: Rng, t: Topic, title: string) {
  const [s1, s2] = two(rng, t.subjects)
  const tool = rng.pick(t.tools)
  return (
    `《${title}》面向${rng.pick(audiences)}，从${s1}讲起，一步一步带你掌握${join(tool, '的')}${s2}。` +
    `\n\n适合人群：${rng.pick(levels)}学员，想系统学习${join(tool, '的')}${rng.pick(audiences)}。` +
    `\n\n你将学会：${s1}、${s2}，并独立完成${rng.pick(t.projects)}。`
  )
}

export function chapterTitle(rng: Rng, t: Topic, index: number) {
  if (index === 0 && rng.chance(0.4)) return join('第1章 认识', rng.pick(t.tools))
  const subject = rng.pick(t.subjects)
  if (rng.chance(0.2)) return `第${index + 1}章 综合案例：${rng.pick(t.projects)}`
  return `第${index + 1}章 ${subject}${rng.pick(chapterTails)}`
}

export function lessonTitle(rng: Rng, t: Topic, index: number) {
  if (index === 0 && rng.chance(0.5)) return '课程介绍与学习方法'
  if (rng.chance(0.15)) return `案例：${rng.pick(t.projects)}`
  return `${index + 1}. ${rng.pick(t.subjects)}的${rng.pick(lessonAspects)}`
}

export function personName(rng: Rng) {
  return rng.pick(surnames) + rng.pick(givenNames)
}

export function teacherTitle(rng: Rng, t: Topic) {
  return rng.chance(0.5)
    ? join(rng.pick(t.tools), rng.pick(teacherTitles))
    : `资深${rng.pick(teacherRoles)} · ${rng.pick(teacherTitles)}`
}

export function teacherIntro(rng: Rng, t: Topic) {
  return `从业 ${rng.int(3, 20)} 年，擅长${rng.pick(t.subjects)}与${rng.pick(t.subjects)}，累计学员 ${rng.int(1, 90)} 万。`
}

export function nickname(rng: Rng, index: number) {
  if (rng.chance(0.3)) return `学员${String(index).padStart(6, '0').slice(-6)}`
  return `${rng.pick(nicknameHeads)}${rng.pick(nicknameTails)}${rng.chance(0.5) ? rng.int(1, 9999) : ''}`
}

export function commentText(rng: Rng, t: Topic) {
  if (rng.chance(0.35))
    return `${rng.pick(t.subjects)}这部分${rng.pick(['终于搞懂了', '还是有点难', '讲得太好了', '想再多练几遍'])}`
  return rng.pick(commentLines)
}
