import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { LearningContext } from './context.ts'
import { countNotes, deleteNote, insertNote, listNotes } from './learning.repository.ts'
import { NOTE_MAX_CHARS } from './learning.schema.ts'
import { refuse } from './views.ts'

const NOTES_PER_VIDEO = 200

// Line breaks and tabs are fine in a note; other control characters are not text.
// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** A member's own notes at seconds of a video. */
export function createNotes(ctx: LearningContext) {
  const { db, now } = ctx
  return {
    /** Adds a note at a second of a video the member may watch (preview included), kept within the video. */
    async addNote(memberId: number, body: { vid: number; second: number; content: string }) {
      const content = body.content.trim()
      if (content.length === 0 || [...content].length > NOTE_MAX_CHARS || controlChars.test(content))
        throw new AppError(Codes.NoteInvalid)
      const { decision } = await ctx.decisionFor(memberId, body.vid)
      if (!decision.allowed) refuse(decision)
      if ((await countNotes(db, memberId, body.vid)) >= NOTES_PER_VIDEO) throw new AppError(Codes.NotesFull)
      const lesson = (await ctx.facts.lessons([body.vid])).get(body.vid)
      if (!lesson) throw new AppError(Codes.NotFound, '视频不存在')
      const length = lesson.durationSeconds
      const second = length > 0 ? Math.min(body.second, length) : body.second
      const row = await insertNote(db, { memberId, videoId: body.vid, second, content, now: now() })
      if (!row) throw new AppError(Codes.NotFound, '视频不存在')
      return {
        id: row.id,
        vid: body.vid,
        second: row.second,
        content: row.content,
        created_at: row.createdAt.toISOString(),
      }
    },

    /** The member's own notes on a video, in video order. */
    async notes(memberId: number, vid: number) {
      const rows = await listNotes(db, memberId, vid, NOTES_PER_VIDEO)
      return {
        list: rows.map((r) => ({
          id: r.id,
          vid,
          second: r.second,
          content: r.content,
          created_at: r.createdAt.toISOString(),
        })),
      }
    },

    /** Deletes one of the member's notes; anyone else's note answers 404 as if it did not exist. */
    async deleteNote(memberId: number, id: number) {
      if (!(await deleteNote(db, memberId, id))) throw new AppError(Codes.NotFound, '笔记不存在')
    },
  }
}
