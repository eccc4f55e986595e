// The scale catalogue: teachers, courses (with system courses' items), chapters and videos, generated as COPY rows.
// Sizes follow the demo's shape: about 2.6 chapters and 5.7 videos per course.
import type { CopyValue } from './copy.ts'
import { permutation, Rng, WeightedPicker } from './random.ts'
import {
  chapterTitle,
  courseIntro,
  courseSubtitle,
  courseTitle,
  lessonTitle,
  personName,
  teacherIntro,
  teacherTitle,
} from './text.ts'
import type { Topic } from './vocabulary.ts'

/** A sub-category the courses are filed under, with its topic words and the demo covers drawn for it. */
export interface ScaleCategory {
  id: number
  topic: Topic
  covers: string[]
}

export interface CatalogueStart {
  teacherId: number
  courseId: number
  chapterId: number
  videoId: number
}

const DAY = 86_400_000
const prices = [990, 1990, 2990, 4990, 6990, 9900, 12900, 19900, 29900, 49900, 69900]
/** Chapters per course (mean 2.6) and videos per chapter (mean 2.2). */
const chapterCounts = [1, 1, 2, 2, 2, 3, 3, 3, 4, 5]
const videosPerChapter = [1, 1, 2, 2, 2, 2, 2, 3, 3, 4]

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The catalogue's plan: what later tables need to know about each course and video (ids, prices, free flags,
 * popularity, lengths), kept in typed arrays so 100,000 courses and 570,000 videos cost a few megabytes.
 */
export class CataloguePlan {
  readonly teacherCount: number
  readonly published: Uint8Array
  readonly isFree: Uint8Array
  readonly vipFree: Uint8Array
  readonly price: Int32Array
  readonly category: Uint16Array
  readonly titles: string[] = []
  readonly createdAt: Float64Array
  readonly chapterCount: Uint8Array
  /** Index of each course's first chapter and first video (chapter i has id start.chapterId + i). */
  readonly firstChapter: Int32Array
  readonly firstVideo: Int32Array
  readonly videoCount: Uint8Array
  readonly chapterVideos: Uint8Array
  readonly durations: Int32Array
  /** Courses by popularity (most learners first): what members buy, watch, favourite and comment on. */
  readonly popularity: WeightedPicker
  readonly studentCount: Int32Array
  readonly systemItems: [number, number, number][] = []
  private readonly teachersByCategory: number[][]

  readonly seed: number
  readonly courseCount: number
  readonly categories: ScaleCategory[]
  readonly start: CatalogueStart
  readonly now: number

  constructor(seed: number, courseCount: number, categories: ScaleCategory[], start: CatalogueStart, now: number) {
    this.seed = seed
    this.courseCount = courseCount
    this.categories = categories
    this.start = start
    this.now = now
    const n = courseCount
    this.teacherCount = Math.max(categories.length, Math.round(n / 40))
    this.teachersByCategory = categories.map(() => [])
    for (let t = 0; t < this.teacherCount; t++) this.teachersByCategory[t % categories.length]!.push(t)
    this.published = new Uint8Array(n)
    this.isFree = new Uint8Array(n)
    this.vipFree = new Uint8Array(n)
    this.price = new Int32Array(n)
    this.category = new Uint16Array(n)
    this.createdAt = new Float64Array(n)
    this.chapterCount = new Uint8Array(n)
    this.firstChapter = new Int32Array(n + 1)
    this.firstVideo = new Int32Array(n + 1)
    this.videoCount = new Uint8Array(n)
    // Popularity: a random order of courses, weights falling off as a power of the rank.
    const rank = permutation(n, new Rng(seed, 'popularity'))
    const weights = new Float64Array(n)
    this.studentCount = new Int32Array(n)
    const noise = new Rng(seed, 'students')
    for (let k = 0; k < n; k++) {
      weights[k] = 1 / (1 + rank[k]!) ** 0.8
      this.studentCount[k] = Math.floor((150_000 / (1 + rank[k]!) ** 0.75) * (0.7 + 0.6 * noise.next()))
    }
    this.popularity = new WeightedPicker(weights)
    // Layout: chapters per course and videos per chapter, so every table's ids are known before any is written.
    const layout = new Rng(seed, 'layout')
    const perChapter: number[] = []
    let chapters = 0
    let videos = 0
    for (let k = 0; k < n; k++) {
      this.firstChapter[k] = chapters
      this.firstVideo[k] = videos
      const c = layout.pick(chapterCounts)
      let v = 0
      for (let i = 0; i < c; i++) {
        const inChapter = layout.pick(videosPerChapter)
        perChapter.push(inChapter)
        v += inChapter
      }
      this.chapterCount[k] = c
      this.videoCount[k] = v
      chapters += c
      videos += v
    }
    this.firstChapter[n] = chapters
    this.firstVideo[n] = videos
    this.chapterVideos = Uint8Array.from(perChapter)
    this.durations = new Int32Array(videos)
  }

  get chapterTotal() {
    return this.firstChapter[this.courseCount]!
  }

  get videoTotal() {
    return this.firstVideo[this.courseCount]!
  }

  courseId(k: number) {
    return this.start.courseId + k
  }

  videoId(v: number) {
    return this.start.videoId + v
  }

  topicOf(k: number) {
    return this.categories[this.category[k]!]!.topic
  }

  *teacherRows(): Generator<CopyValue[]> {
    const rng = new Rng(this.seed, 'teachers')
    for (let t = 0; t < this.teacherCount; t++) {
      const topic = this.categories[t % this.categories.length]!.topic
      const at = iso(this.now - rng.int(200, 2000) * DAY)
      yield [this.start.teacherId + t, personName(rng), teacherTitle(rng, topic), null, teacherIntro(rng, topic), 0, at]
    }
  }

  *courseRows(): Generator<CopyValue[]> {
    const rng = new Rng(this.seed, 'courses')
    const categoryWeights = new WeightedPicker(this.categories.map(() => 0.4 + rng.next() * 1.6))
    const byCategory: number[][] = this.categories.map(() => [])
    for (let k = 0; k < this.courseCount; k++) {
      const cat = categoryWeights.pick(rng)
      const category = this.categories[cat]!
      const topic = category.topic
      const id = this.courseId(k)
      const roll = rng.next()
      const earlier = byCategory[cat]!
      const type =
        roll < 0.03 && earlier.length >= 5 ? 'system' : roll < 0.05 ? 'live' : roll < 0.1 ? 'single' : 'series'
      const status = rng.chance(0.95) ? 'published' : rng.chance(0.6) ? 'hidden' : 'draft'
      const free = rng.chance(0.08)
      const price = free ? 0 : rng.pick(prices)
      const vipFree = !free && rng.chance(0.25)
      const created = this.now - rng.next() * 5 * 365 * DAY
      const title = courseTitle(rng, topic)
      const level = rng.chance(0.55) ? 'beginner' : rng.chance(0.66) ? 'intermediate' : 'advanced'
      const liveStart = type === 'live' ? this.now + rng.int(-30, 30) * DAY : null
      const teachers = this.teachersByCategory[cat]!
      this.category[k] = cat
      this.published[k] = status === 'published' ? 1 : 0
      this.isFree[k] = free ? 1 : 0
      this.vipFree[k] = vipFree ? 1 : 0
      this.price[k] = price
      this.createdAt[k] = created
      this.titles.push(title)
      if (type === 'system') {
        const members = new Set<number>()
        const want = rng.int(3, 5)
        while (members.size < want) members.add(rng.pick(earlier))
        let sort = 0
        for (const m of members) this.systemItems.push([id, this.courseId(m), sort++])
      }
      earlier.push(k)
      yield [
        id,
        type,
        title,
        courseSubtitle(rng, topic),
        rng.pick(category.covers),
        courseIntro(rng, topic, title),
        category.id,
        this.start.teacherId + rng.pick(teachers),
        price,
        !free && rng.chance(0.4) ? Math.round((price * 1.5) / 100) * 100 : null,
        free,
        !free && rng.chance(0.05) ? Math.max(100, Math.round(price / 100) * 100) : null,
        vipFree,
        status,
        level,
        [rng.pick(topic.tools), rng.pick(topic.subjects)],
        this.studentCount[k]!,
        liveStart === null ? null : iso(liveStart),
        liveStart === null ? null : iso(liveStart + 90 * 60_000),
        rng.chance(0.97) ? 0 : rng.pick([10, 20, 30]),
        iso(created),
        iso(created + rng.int(0, 90) * DAY),
      ]
    }
  }

  *chapterRows(): Generator<CopyValue[]> {
    const rng = new Rng(this.seed, 'chapters')
    for (let k = 0; k < this.courseCount; k++) {
      const topic = this.topicOf(k)
      for (let i = 0; i < this.chapterCount[k]!; i++)
        yield [this.start.chapterId + this.firstChapter[k]! + i, this.courseId(k), chapterTitle(rng, topic, i), i]
    }
  }

  *videoRows(): Generator<CopyValue[]> {
    const rng = new Rng(this.seed, 'videos')
    for (let k = 0; k < this.courseCount; k++) {
      const topic = this.topicOf(k)
      const free = this.isFree[k] === 1
      const created = iso(this.createdAt[k]!)
      let position = 0
      for (let i = 0; i < this.chapterCount[k]!; i++) {
        const chapter = this.firstChapter[k]! + i
        for (let j = 0; j < this.chapterVideos[chapter]!; j++) {
          const v = this.firstVideo[k]! + position
          const duration = rng.int(300, 1800)
          this.durations[v] = duration
          yield [
            this.videoId(v),
            this.courseId(k),
            this.start.chapterId + chapter,
            lessonTitle(rng, topic, position),
            duration,
            !free && position === 1 ? 120 : 0,
            free || position === 0,
            position,
            created,
          ]
          position++
        }
      }
    }
  }
}
