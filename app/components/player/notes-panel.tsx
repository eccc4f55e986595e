import { useEffect, useState, type FormEvent } from 'react'
import type { z } from 'zod'
import type { Note as NoteSchema } from '#server/modules/learning/learning.schema.ts'
import { formatDuration } from '#app/components/course-card/course-format.ts'
import { Empty, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { showLogin } from '#app/lib/events.ts'
import { toast } from '#app/lib/toast.ts'
import styles from './player-panels.module.css'

type Note = z.infer<typeof NoteSchema>

const MAX = 500

/**
 * The member's notes on this video: written at the current second of the video, listed in video order; a tap on
 * a note jumps there. Anonymous visitors are asked to log in; without access to the video there is nothing to
 * note.
 */
export function NotesPanel({
  vid,
  signedIn,
  canNote,
  currentTime,
  onSeek,
}: {
  vid: number
  signedIn: boolean
  canNote: boolean
  currentTime: () => number
  onSeek: (second: number) => void
}) {
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; list: Note[] }
  >({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!signedIn || !canNote) return
    const controller = new AbortController()
    api
      .get<{ list: Note[] }>('/video/notes', { vid }, { quiet: true, signal: controller.signal })
      .then((data) => setState({ status: 'ready', list: data.list }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(error, '笔记加载失败') })
      })
    return () => controller.abort()
  }, [vid, signedIn, canNote, attempt])

  if (!signedIn) {
    return (
      <div className={styles.notice}>
        <p>登录后可以在视频的任意时间点记笔记</p>
        <button type="button" className={styles.noticeButton} onClick={() => showLogin()}>
          登录 / 注册
        </button>
      </div>
    )
  }
  if (!canNote) return <Empty message="购买课程后可以记笔记" />

  async function add(event: FormEvent) {
    event.preventDefault()
    const content = text.trim()
    if (!content) {
      toast('请先写下笔记内容')
      return
    }
    setBusy(true)
    try {
      const note = await api.post<Note>('/video/note', { vid, second: Math.floor(currentTime()), content })
      setText('')
      setState((s) =>
        s.status === 'ready'
          ? { status: 'ready', list: [...s.list, note].sort((a, b) => a.second - b.second || a.id - b.id) }
          : s,
      )
      toast('笔记已保存')
    } catch {
      // The request wrapper showed the reason.
    } finally {
      setBusy(false)
    }
  }

  async function remove(note: Note) {
    try {
      await api.post('/video/note/delete', { id: note.id })
      setState((s) => (s.status === 'ready' ? { status: 'ready', list: s.list.filter((n) => n.id !== note.id) } : s))
    } catch {
      // Toasted by the wrapper.
    }
  }

  return (
    <div className={styles.notes}>
      <form className={styles.noteForm} onSubmit={(e) => void add(e)}>
        <textarea
          className={styles.noteInput}
          value={text}
          maxLength={MAX}
          rows={2}
          placeholder="在当前播放位置记一条笔记"
          aria-label="笔记内容"
          onChange={(e) => setText(e.target.value)}
        />
        <div className={styles.noteFormRow}>
          <span className={styles.noteCount}>
            {[...text].length}/{MAX}
          </span>
          <button type="submit" className={styles.noteSubmit} disabled={busy}>
            {busy ? '保存中…' : '记在当前时间点'}
          </button>
        </div>
      </form>
      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} /> : null}
      {state.status === 'ready' && state.list.length === 0 ? <Empty message="还没有笔记，边看边记吧" /> : null}
      {state.status === 'ready' && state.list.length > 0 ? (
        <ul className={styles.noteList} aria-label="我的笔记">
          {state.list.map((note) => (
            <li key={note.id} className={styles.note}>
              <button
                type="button"
                className={styles.noteSeek}
                onClick={() => onSeek(note.second)}
                aria-label={`跳到 ${formatDuration(note.second)}`}
              >
                <span className={styles.noteTime}>{formatDuration(note.second)}</span>
                <span className={styles.noteContent}>{note.content}</span>
              </button>
              <button type="button" className={styles.noteDelete} onClick={() => void remove(note)}>
                删除
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
