import { Col, Form, Input, Row, Tag, Typography } from 'antd'
import { useState } from 'react'
import { Link } from 'react-router'
import { CoursePatch } from '#shared/api/catalogue-editing.ts'
import { api } from '../../lib/client.ts'
import { ConsoleTable, type TableParams } from '../../lib/console-table.tsx'
import { FormDialog } from '../../lib/form-dialog.tsx'
import { beijingInput, isoFromBeijing, when } from '../../lib/format.ts'
import { csvExport, pagedLoad } from '../../lib/list.ts'
import { useMe } from '../../lib/me.ts'
import { zodRule } from '../../lib/zod-rule.ts'
import { courseStatusColors, courseStatusNames, options } from './names.ts'
import { useWrite, type Course } from './use-catalogue.ts'

type Values = { live_starts_at: string; live_ends_at: string; live_pull_url: string }

const live = { type: 'live' }
/** The schedule reads soonest first unless the operator sorts otherwise. */
const bySchedule = (p: TableParams): TableParams => (p.sort ? p : { ...p, sort: 'live_starts_at', order: 'asc' })
const load = pagedLoad<Course>('/admin/courses', live)
const exportCsv = csvExport('/admin/courses', live)

/** Live courses by start time (GET /admin/courses?type=live): when each airs, its stream, and setting them. */
export default function LiveSchedule() {
  const edit = useMe().may('catalogue.edit')
  const [open, setOpen] = useState<Course | null>(null)
  const [form] = Form.useForm<Values>()
  const save = useWrite(
    (v: Values) =>
      api.patch<Course>(`/admin/courses/${open!.id}`, {
        live_starts_at: isoFromBeijing(v.live_starts_at),
        live_ends_at: isoFromBeijing(v.live_ends_at),
        live_pull_url: v.live_pull_url || null,
      }),
    (c) => `已保存「${c.title}」的直播排期`,
    [['table', 'live']],
  )
  const show = (c: Course) => {
    form.setFieldsValue({
      live_starts_at: beijingInput(c.live_starts_at),
      live_ends_at: beijingInput(c.live_ends_at),
      live_pull_url: c.live_pull_url ?? '',
    })
    setOpen(c)
  }
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
      <Typography.Title level={4}>直播排期</Typography.Title>
      <ConsoleTable<Course>
        id="live"
        rowKey="id"
        searchPlaceholder="直播课标题"
        filters={[{ name: 'status', label: '状态', type: 'select', options: options(courseStatusNames) }]}
        load={(p) => load(bySchedule(p))}
        onExport={(p) => exportCsv(bySchedule(p))}
        empty="没有直播课。在「课程」里新建一门类型为「直播」的课程。"
        columns={[
          {
            title: '课程',
            dataIndex: 'title',
            render: (t: string, c) => <Link to={`/admin/catalogue/courses/${c.id}`}>{t}</Link>,
          },
          { title: '开始', dataIndex: 'live_starts_at', key: 'live_starts_at', sorter: true, render: when },
          { title: '结束', dataIndex: 'live_ends_at', render: when },
          { title: '直播', key: 'phase', render: (_, c) => phase(c) },
          { title: '拉流地址', dataIndex: 'live_pull_url', ellipsis: true, render: (u: string | null) => u ?? '—' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: string) => <Tag color={courseStatusColors[s]}>{courseStatusNames[s] ?? s}</Tag>,
          },
          ...(edit
            ? [{ title: '操作', key: 'a', render: (_: unknown, c: Course) => <a onClick={() => show(c)}>设置排期</a> }]
            : []),
        ]}
      />
      <FormDialog
        title={`直播排期：${open?.title ?? ''}`}
        open={open !== null}
        form={form}
        name="live"
        saving={save.isPending}
        onSave={save.mutateAsync}
        onClose={() => setOpen(null)}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="开始（北京时间）" name="live_starts_at">
              <Input type="datetime-local" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="结束（北京时间）" name="live_ends_at">
              <Input type="datetime-local" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label="拉流地址"
          name="live_pull_url"
          rules={[zodRule(CoursePatch.shape.live_pull_url, (v) => v || null)]}
          extra="HLS 拉流地址（http/https）"
        >
          <Input />
        </Form.Item>
      </FormDialog>
    </>
  )
}
