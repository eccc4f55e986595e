import { PlusOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, Input, InputNumber, Select, Space, Switch, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { Link } from 'react-router'
import { ChapterCreate, VideoCreate } from '#shared/api/catalogue-editing.ts'
import { api } from '../../lib/client.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { moveButtons } from '../../lib/move-buttons.tsx'
import { zodRule } from '../../lib/zod-rule.ts'
import { videoStateNames } from './names.ts'
import { useWrite, type Chapter, type CourseDetail, type Lesson } from './use-catalogue.ts'

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
  const [chapter, setChapter] = useState<Chapter | 'new' | null>(null)
  const [lesson, setLesson] = useState<Lesson | { chapter_id: number | null } | null>(null)
  const [chapterForm] = Form.useForm<{ title: string }>()
  const [lessonForm] = Form.useForm<LessonValues>()

  const saveChapter = useWrite(
    (v: { title: string }) =>
      chapter === 'new' || chapter === null
        ? api.post<Chapter>('/admin/chapters', {
            course_id: course.id,
            title: v.title,
            sort: nextSort(course.chapters),
          })
        : api.patch<Chapter>(`/admin/chapters/${chapter.id}`, v),
    (c) => `已保存章节「${c.title}」`,
    [key],
  )
  const saveLesson = useWrite(
    (v: LessonValues) =>
      lesson && 'id' in lesson
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

  const openChapter = (c: Chapter | 'new') => {
    chapterForm.setFieldsValue({ title: c === 'new' ? '' : c.title })
    setChapter(c)
  }
  const openLesson = (l: Lesson | { chapter_id: number | null }) => {
    lessonForm.setFieldsValue(
      'id' in l
        ? { title: l.title, chapter_id: l.chapter_id, free_seconds: l.free_seconds, is_free: l.is_free }
        : { title: '', chapter_id: l.chapter_id, free_seconds: 0, is_free: false },
    )
    setLesson(l)
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
            <Button icon={<PlusOutlined />} onClick={() => openChapter('new')}>
              添加章节
            </Button>
          </Space>
        )}
      </div>
      {groups.length === 0 && <div className="zx-console-hint">还没有章节。点「添加章节」，再在章节里添加课时。</div>}
      {groups.map(({ chapter: c, lessons }, gi) => (
        <div key={c?.id ?? 'none'} className="zx-console-chapter">
          <div className="zx-console-title-row">
            <Typography.Text strong>{c ? `第 ${gi + 1} 章 · ${c.title}` : '未分章节的课时'}</Typography.Text>
            {edit && c && (
              <Space className="zx-console-actions">
                {move(gi, course.chapters, 'chapters')}
                <a onClick={() => openChapter(c)}>重命名</a>
                <a onClick={() => openLesson({ chapter_id: c.id })}>添加课时</a>
              </Space>
            )}
          </div>
          <Table<Lesson>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={lessons}
            locale={{ emptyText: '这一章还没有课时' }}
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
              ...(edit
                ? [
                    {
                      title: '操作',
                      key: 'a',
                      width: 140,
                      render: (_: unknown, l: Lesson, i: number) => (
                        <Space>
                          {move(i, lessons, 'videos')}
                          <a onClick={() => openLesson(l)}>编辑</a>
                        </Space>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </div>
      ))}
      <FormDialog
        title={chapter === 'new' ? '添加章节' : '重命名章节'}
        open={chapter !== null}
        form={chapterForm}
        name="chapter"
        saving={saveChapter.isPending}
        onSave={saveChapter.mutateAsync}
        onClose={() => setChapter(null)}
      >
        <Form.Item
          label="章节标题"
          name="title"
          rules={[{ required: true, message: '请填写章节标题' }, zodRule(ChapterCreate.shape.title)]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </FormDialog>
      <FormDialog
        title={lesson && 'id' in lesson ? `编辑课时：${lesson.title}` : '添加课时'}
        open={lesson !== null}
        form={lessonForm}
        name="lesson"
        saving={saveLesson.isPending}
        onSave={saveLesson.mutateAsync}
        onClose={() => setLesson(null)}
        footnote={<div className="zx-console-hint">视频文件在「媒体」页上传和转码。</div>}
      >
        <Form.Item
          label="课时标题"
          name="title"
          rules={[{ required: true, message: '请填写课时标题' }, zodRule(VideoCreate.shape.title)]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="所属章节" name="chapter_id">
          <Select
            allowClear
            placeholder="不分章节"
            options={course.chapters.map((c) => ({ value: c.id, label: c.title }))}
            onClear={() => lessonForm.setFieldValue('chapter_id', null)}
          />
        </Form.Item>
        <Form.Item
          label="免费试看（秒）"
          name="free_seconds"
          rules={[zodRule(VideoCreate.shape.free_seconds)]}
          extra="未购买的学员可以看的开头秒数，0 为不能试看"
        >
          <InputNumber min={0} precision={0} />
        </Form.Item>
        <Form.Item label="整节免费" name="is_free" valuePropName="checked">
          <Switch />
        </Form.Item>
      </FormDialog>
    </div>
  )
}

/** The sort that puts a new row last. */
const nextSort = (rows: { sort: number }[]) => Math.max(0, ...rows.map((r) => r.sort)) + 10
