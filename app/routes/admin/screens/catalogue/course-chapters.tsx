import { PlusOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, InputNumber, Select, Space, Tag, Typography } from 'antd'
import { Link } from 'react-router'
import { ChapterCreate, VideoCreate } from '#shared/api/catalogue-editing.ts'
import { api } from '../../lib/client.ts'
import { SwitchField, TextField } from '../../lib/fields.tsx'
import { actionsColumn } from '../../lib/columns.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { editTitle, FormDialog } from '../../lib/form-dialog.tsx'
import { moveButtons } from '../../lib/move-buttons.tsx'
import { WholeTable } from '../../lib/whole-list.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { videoStateNames } from './names.ts'
import type { Chapter, CourseDetail, Lesson } from './use-catalogue.ts'

const stateColors: Record<string, string> = { ready: 'green', transcoding: 'blue', uploaded: 'blue', failed: 'red' }
const duration = (s: number) => (s ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}` : '—')

type LessonValues = { title: string; chapter_id: number | null; free_seconds: number; is_free: boolean }

/**
 * A course's chapters and their lessons: add, rename, reorder (each move renumbers the `sort` of the list), and
 * each lesson's video state, read-only, with a link to the media screen where its file is uploaded.
 */
export function CourseChapters({ course, edit }: { course: CourseDetail; edit: boolean }) {
  const { message } = App.useApp()
  const client = useQueryClient()
  const key = ['catalogue', 'course', course.id]
  const chapters = useEditor<Chapter, { title: string }>('chapter', (c) => ({ title: c?.title ?? '' }))
  const lessons = useEditor<Lesson, LessonValues>('lesson', (l) =>
    l
      ? { title: l.title, chapter_id: l.chapter_id, free_seconds: l.free_seconds, is_free: l.is_free }
      : { title: '', free_seconds: 0, is_free: false },
  )
  const chapter = chapters.editing
  const lesson = lessons.editing

  const saveChapter = useWrite(
    (v: { title: string }) =>
      chapter
        ? api.patch<Chapter>(`/admin/chapters/${chapter.id}`, v)
        : api.post<Chapter>('/admin/chapters', {
            course_id: course.id,
            title: v.title,
            sort: nextSort(course.chapters),
          }),
    (c) => `已保存章节「${c.title}」`,
    [key],
  )
  const saveLesson = useWrite(
    (v: LessonValues) =>
      lesson
        ? api.patch<Lesson>(`/admin/videos/${lesson.id}`, v)
        : api.post<Lesson>('/admin/videos', { ...v, course_id: course.id, sort: nextSort(course.videos) }),
    (l) => `已保存课时「${l.title}」`,
    [key],
  )

  /** Puts the rows in this order: each row whose place changed gets sort = 10 × its place. */
  const reorder = async (kind: 'chapters' | 'videos', rows: { id: number; sort: number }[]) => {
    try {
      await Promise.all(
        rows.flatMap((r, i) =>
          r.sort === (i + 1) * 10 ? [] : [api.patch(`/admin/${kind}/${r.id}`, { sort: (i + 1) * 10 })],
        ),
      )
      await client.invalidateQueries({ queryKey: key })
    } catch (e) {
      message.error((e as Error).message)
    }
  }

  const groups: { chapter: Chapter | null; lessons: Lesson[] }[] = [
    ...course.chapters.map((c) => ({ chapter: c, lessons: course.videos.filter((v) => v.chapter_id === c.id) })),
    { chapter: null, lessons: course.videos.filter((v) => v.chapter_id === null) },
  ].filter((g) => g.chapter !== null || g.lessons.length > 0)

  const move = (index: number, all: { id: number; sort: number }[], kind: 'chapters' | 'videos') => (
    <Space size={4}>{moveButtons(all, index, (next) => void reorder(kind, next))}</Space>
  )

  return (
    <div className="zx-console-panel">
      <div className="zx-console-title-row">
        <Typography.Title level={5}>章节与课时</Typography.Title>
        {edit && (
          <Space className="zx-console-actions">
            <Button icon={<PlusOutlined />} onClick={() => chapters.open(null)}>
              添加章节
            </Button>
          </Space>
        )}
      </div>
      {groups.length === 0 && <div className="zx-console-hint">还没有章节。点「添加章节」，再在章节里添加课时。</div>}
      {groups.map(({ chapter: c, lessons: group }, gi) => (
        <div key={c?.id ?? 'none'} className="zx-console-chapter">
          <div className="zx-console-title-row">
            <Typography.Text strong>{c ? `第 ${gi + 1} 章 · ${c.title}` : '未分章节的课时'}</Typography.Text>
            {edit && c && (
              <Space className="zx-console-actions">
                {move(gi, course.chapters, 'chapters')}
                <a onClick={() => chapters.open(c)}>重命名</a>
                <a onClick={() => lessons.open(null, { chapter_id: c.id })}>添加课时</a>
              </Space>
            )}
          </div>
          <WholeTable<Lesson>
            size="small"
            rows={group}
            fetching={false}
            empty="这一章还没有课时"
            columns={[
              { title: '课时', dataIndex: 'title' },
              { title: '时长', dataIndex: 'duration_seconds', width: 80, render: duration },
              {
                title: '试看',
                key: 'free',
                width: 120,
                render: (_, l) => (l.is_free ? '整节免费' : l.free_seconds ? `前 ${l.free_seconds} 秒` : '—'),
              },
              {
                title: '视频',
                key: 'media',
                width: 220,
                render: (_, l) => (
                  <Space>
                    <Tag color={stateColors[l.media.status]}>
                      {videoStateNames[l.media.status] ?? l.media.status}
                      {l.media.status === 'transcoding' ? ` ${l.media.progress}%` : ''}
                    </Tag>
                    <Link to={`/admin/media?video=${l.id}`}>{l.media.status === 'none' ? '去上传' : '媒体'}</Link>
                  </Space>
                ),
              },
              ...actionsColumn<Lesson>(
                (l, i) => (
                  <>
                    {move(i, group, 'videos')}
                    <a onClick={() => lessons.open(l)}>编辑</a>
                  </>
                ),
                edit,
                140,
              ),
            ]}
          />
        </div>
      ))}
      <FormDialog {...chapters.dialog} title={chapter ? '重命名章节' : '添加章节'} save={saveChapter}>
        <TextField
          label="章节标题"
          name="title"
          schema={ChapterCreate.shape.title}
          max={100}
          required="请填写章节标题"
        />
      </FormDialog>
      <FormDialog
        {...lessons.dialog}
        title={editTitle('课时', lesson?.title, '添加')}
        save={saveLesson}
        footnote={<div className="zx-console-hint">视频文件在「媒体」页上传和转码。</div>}
      >
        <TextField label="课时标题" name="title" schema={VideoCreate.shape.title} max={100} required="请填写课时标题" />
        <Form.Item label="所属章节" name="chapter_id">
          <Select
            allowClear
            placeholder="不分章节"
            options={course.chapters.map((c) => ({ value: c.id, label: c.title }))}
            onClear={() => lessons.form.setFieldValue('chapter_id', null)}
          />
        </Form.Item>
        <Form.Item
          label="免费试看（秒）"
          name="free_seconds"
          rules={[{ required: true, message: '请填写试看秒数，0 为不能试看' }, zodRule(VideoCreate.shape.free_seconds)]}
          extra="未购买的学员可以看的开头秒数，0 为不能试看"
        >
          <InputNumber precision={0} />
        </Form.Item>
        <SwitchField label="整节免费" name="is_free" />
      </FormDialog>
    </div>
  )
}

/** The sort that puts a new row last. */
const nextSort = (rows: { sort: number }[]) => Math.max(0, ...rows.map((r) => r.sort)) + 10
