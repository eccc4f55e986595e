import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { violatesUnique } from '#server/db/unique-violation.ts'
import type { HotWordBody, HotWordOrder } from '#shared/api/admin-hot-words.ts'
import { allHotWords, deleteHotWord, insertHotWord, reorderHotWords, updateHotWord } from './hot-words.repository.ts'

const view = (r: { id: number; word: string; sort: number }) => ({ id: r.id, word: r.word, sort: r.sort })

/**
 * Hot search words for the operators' console: add, change, remove and order them. Each write drops the learners'
 * cached list (`invalidate`, in every process), so the search page shows it on the next read.
 */
export function createHotWordAdmin(deps: { db: Db; invalidate: () => Promise<void> }) {
  const { db, invalidate } = deps
  const list = async () => ({ list: (await allHotWords(db)).map(view) })
  const notFound = (id: number) => new AppError(Codes.NotFound, `热词 ${id} 不存在`)
  /** A write refused by the unique index (the same word, case and spaces aside) as Conflict on `word`. */
  const once = async <R>(word: string, write: () => Promise<R>) => {
    try {
      return await write()
    } catch (err) {
      if (violatesUnique(err, 'hot_words_word_key'))
        throw new AppError(Codes.Conflict, `热词里已有「${word}」`, { field: 'word' })
      throw err
    }
  }
  return {
    list,
    async create(body: HotWordBody) {
      const row = await once(body.word, () => insertHotWord(db, body.word))
      await invalidate()
      return view(row)
    },
    async update(id: number, body: HotWordBody) {
      const row = await once(body.word, () => updateHotWord(db, id, body.word))
      if (!row) throw notFound(id)
      await invalidate()
      return view(row)
    },
    async remove(id: number) {
      if (!(await deleteHotWord(db, id))) throw notFound(id)
      await invalidate()
    },
    /** Puts the words in the order given (every word once). */
    async order(body: HotWordOrder) {
      const known = (await allHotWords(db)).map((w) => w.id)
      const given = new Set(body.ids)
      if (given.size !== body.ids.length || given.size !== known.length || known.some((id) => !given.has(id)))
        throw new AppError(Codes.BadRequest, '排序必须列出全部热词，且每个一次', { field: 'ids' })
      await reorderHotWords(db, body.ids)
      await invalidate()
      return list()
    },
  }
}

export type HotWordAdmin = ReturnType<typeof createHotWordAdmin>
