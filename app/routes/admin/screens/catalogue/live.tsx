import { Tag } from 'antd'
import { useState } from 'react'
import { Link } from 'react-router'
import { api } from '../../lib/client.ts'
import { actionsColumn, stateColumn, timeColumn } from '../../lib/columns.tsx'
import { ConsoleTable, selectFilter, type TableParams, tableKey } from '../../lib/console-table.tsx'
import { useEditor, useWrite } from '../../lib/editing.ts'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { useMe } from '../../lib/me.ts'
import { LiveFields, liveBody, liveValues, type LiveValues } from './course-form.tsx'
import { courseStatusColors, courseStatusNames } from './names.ts'
import type { Course } from './use-catalogue.ts'

/** The schedule reads soonest first unless the operator sorts otherwise. */
const bySchedule = (p: TableParams): TableParams => (p.sort ? p : { ...p, sort: 'live_starts_at', order: 'asc' })

/** Live courses by start time (GET /admin/courses?type=live): when each airs, its stream, and setting them. */
export default function LiveSchedule() {
  const edit = useMe().may('catalogue.edit')
  const editor = useEditor<Course, LiveValues>('live', (c) => (c ? liveValues(c) : {}))
  const save = useWrite(
    (v: LiveValues) => api.patch<Course>(`/admin/courses/${editor.editing!.id}`, liveBody(v)),
    (c) => `已保存「${c.title}」的直播排期`,
    [tableKey('/admin/courses')],
  )

  const [now] = useState(() => Date.now())
  const phase = (c: Course) =>
    !c.live_starts_at ? (
      <Tag>未排期</Tag>
    ) : new Date(c.live_starts_at).getTime() > now ? (
      <Tag color="blue">未开始</Tag>
    ) : c.live_ends_at && new Date(c.live_ends_at).getTime() < now ? (
      <Tag>已结束</Tag>
    ) : (
      <Tag color="red">直播中</Tag>
    )

  return (
    <>
      <ConsoleTable<Course>
        title="直播排期"
        path="/admin/courses"
        query={{ type: 'live' }}
        params={bySchedule}
        csv={{ permission: 'courses.read', own: true }}
        search="直播课标题"
        filters={[selectFilter('status', '状态', courseStatusNames)]}
        empty="没有直播课。在「课程」里新建一门类型为「直播」的课程。"
        columns={[
          {
            title: '课程',
            dataIndex: 'title',
            render: (t: string, c) => <Link to={`/admin/catalogue/courses/${c.id}`}>{t}</Link>,
          },
          timeColumn('开始', 'live_starts_at', true),
          timeColumn('结束', 'live_ends_at'),
          { title: '直播', key: 'phase', render: (_, c) => phase(c) },
          { title: '拉流地址', dataIndex: 'live_pull_url', ellipsis: true, render: (u: string | null) => u ?? '—' },
          stateColumn('状态', 'status', courseStatusNames, courseStatusColors),
          ...actionsColumn<Course>((c) => <a onClick={() => editor.open(c)}>设置排期</a>, edit),
        ]}
      />
      <FormDialog {...editor.dialog} title={`直播排期：${editor.editing?.title ?? ''}`} save={save}>
        <LiveFields />
      </FormDialog>
    </>
  )
}
