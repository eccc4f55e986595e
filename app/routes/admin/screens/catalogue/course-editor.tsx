import { ArrowLeftOutlined } from '@ant-design/icons'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, Space, Spin, Tag, Typography } from 'antd'
import { useEffect } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { api, ConsoleError } from '../../lib/client.ts'
import { useConfirm } from '../../lib/confirm.tsx'
import { tableKey } from '../../lib/console-table.tsx'
import { useMe } from '../../lib/me.ts'
import { useUnsavedChanges } from '../../lib/unsaved.tsx'
import { showUnderField, validFields } from '../../lib/valid-fields.ts'
import { CourseChapters } from './course-chapters.tsx'
import { apiFieldOf, courseBody, courseFields, CourseForm, courseValues, type CourseValues } from './course-form.tsx'
import { courseStatusColors, courseStatusNames } from './names.ts'
import type { Course, CourseDetail } from './use-catalogue.ts'

/** What the toast says after a save: a 上架/下架 button's change says which, not 已保存. */
function savedMessage(title: string, body: object) {
  const status = Object.keys(body).length === 1 ? (body as { status?: string }).status : undefined
  if (status === 'published') return `已上架「${title}」`
  if (status === 'hidden') return `已下架「${title}」`
  return `已保存「${title}」`
}

/**
 * One course: its fields (type, category, teacher, cover, prices in yuan, points price, VIP-free, status) and,
 * once saved, its chapters and lessons. `/admin/catalogue/courses/new` creates one (as a draft by default).
 */
export default function CourseEditor() {
  const { id } = useParams()
  const courseId = id === 'new' ? null : Number(id)
  const navigate = useNavigate()
  const client = useQueryClient()
  const { message } = App.useApp()
  const confirm = useConfirm()
  // A teacher edits their own courses (the API opens no other to them).
  const edit = useMe().mayOwn('catalogue.edit')
  const [form] = Form.useForm<CourseValues>()
  const unsaved = useUnsavedChanges()
  const key = ['catalogue', 'course', courseId]
  const detail = useQuery({
    queryKey: key,
    queryFn: () => api.get<CourseDetail>(`/admin/courses/${courseId}`),
    enabled: courseId !== null,
  })
  useEffect(() => {
    if (detail.data) form.setFieldsValue(courseValues(detail.data))
  }, [detail.data, form])

  const save = useMutation({
    mutationFn: (body: object) =>
      courseId === null
        ? api.post<Course>('/admin/courses', body)
        : api.patch<Course>(`/admin/courses/${courseId}`, body),
    onSuccess: (c, body) => {
      // 上架/下架 saves the status alone: the form's own changes are still unsaved then.
      if (!('status' in body && Object.keys(body).length === 1)) unsaved.saved()
      message.success(savedMessage(c.title, body))
      void client.invalidateQueries({ queryKey: tableKey('/admin/courses') })
      void client.invalidateQueries({ queryKey: ['catalogue', 'course', c.id] })
      if (courseId === null) void navigate(`/admin/catalogue/courses/${c.id}`, { replace: true })
    },
    onError: (e) => {
      // "原价不能低于售价" about original_price_fen (data.field): the message goes under that field too.
      showUnderField(form, e, (field) => {
        const name = apiFieldOf[field] ?? field
        return courseFields.includes(name as keyof CourseValues) ? name : undefined
      })
      message.error(e instanceof ConsoleError ? e.message : '保存失败，请重试')
    },
  })

  const submit = async () => {
    const values = await validFields(form)
    if (values) save.mutate(courseBody(values))
  }
  const setStatus = (status: 'published' | 'hidden') => {
    const title = detail.data?.title ?? ''
    confirm({
      title: status === 'published' ? `上架「${title}」` : `下架「${title}」`,
      content:
        status === 'published'
          ? '上架后学员马上能在搜索、所属分类的课程列表和课程链接里看到并购买这门课。首页只显示「首页栏目」里选定的课程：要上首页，请在首页栏目里添加它。'
          : '下架后学员在搜索、分类和首页栏目里都不再看到这门课，已购学员仍可学习。',
      okText: status === 'published' ? '确认上架' : '确认下架',
      danger: status === 'hidden',
      run: () => save.mutateAsync({ status }),
    })
  }

  if (courseId !== null && detail.isPending) return <Spin />
  if (detail.error) return <div className="zx-console-error">加载失败：{detail.error.message}</div>
  const course = detail.data
  return (
    <>
      <div className="zx-console-title-row">
        <Link to="/admin/catalogue/courses" aria-label="返回课程列表">
          <ArrowLeftOutlined />
        </Link>
        <Typography.Title level={4}>{course ? course.title : '新建课程'}</Typography.Title>
        {course && <Tag color={courseStatusColors[course.status]}>{courseStatusNames[course.status]}</Tag>}
        {course?.status === 'published' && (
          <a href={`/course/${course.id}.html`} target="_blank" rel="noreferrer">
            在学员端查看
          </a>
        )}
        {edit && (
          <Space className="zx-console-actions">
            {course && course.status !== 'published' && (
              <Button onClick={() => setStatus('published')} loading={save.isPending}>
                上架
              </Button>
            )}
            {course?.status === 'published' && (
              <Button danger onClick={() => setStatus('hidden')} loading={save.isPending}>
                下架
              </Button>
            )}
            <Button type="primary" onClick={submit} loading={save.isPending}>
              {course ? '保存' : '创建课程'}
            </Button>
          </Space>
        )}
      </div>
      <div className="zx-console-panel">
        <CourseForm form={form} disabled={!edit} onChange={unsaved.changed} />
      </div>
      {course ? (
        <CourseChapters course={course} edit={edit} />
      ) : (
        <div className="zx-console-panel zx-console-hint">创建课程后即可添加章节和课时。</div>
      )}
    </>
  )
}
