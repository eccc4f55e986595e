import { Space, Tag, Typography } from 'antd'
import type { StaffEnrolment } from '#server/modules/tuition/tuition.schema.ts'
import { enrolmentStateNames } from '#shared/tuition-names.ts'
import { idColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, useDetailParam } from '../lib/console-table.tsx'
import { when, yuan } from '../lib/format.ts'
import EnrolmentDrawer from './enrolment-detail.tsx'
import { enrolmentStateColors, useSystemCourses } from './tuition-names.ts'

/**
 * 报名学员 (issue 15): everyone offered a system course, by state, course and name or phone, with what they paid
 * and what is due next; a row opens the enrolment (schedule, event log, contract, due dates, exit approval).
 */
export default function Enrolments() {
  const courses = useSystemCourses()
  const [detail, show] = useDetailParam()
  const open = Number(detail) || null
  return (
    <>
      <ConsoleTable<StaffEnrolment>
        title="报名学员"
        path="/admin/enrolments"
        csv="tuition.read"
        search="姓名或手机号"
        filters={[
          selectFilter('state', '状态', enrolmentStateNames),
          selectFilter(
            'course_id',
            '体系课',
            courses.options.map((o) => ({ value: String(o.value), label: o.label })),
          ),
        ]}
        onRow={(r) => ({ onClick: () => show(r.id), style: { cursor: 'pointer' } })}
        empty="没有符合条件的报名。换个状态或体系课试试。"
        none="还没有报名。在“报名线索”里给线索发报名后，学员会出现在这里。"
        columns={[
          idColumn('ID', 70),
          {
            title: '学员',
            key: 'who',
            render: (_, r) => (
              <Space orientation="vertical" size={0}>
                <a>{r.name ?? `会员 ${r.member_id}`}</a>
                <Typography.Text type="secondary">{r.phone ?? '未绑定手机'}</Typography.Text>
              </Space>
            ),
          },
          { title: '体系课', dataIndex: 'course_title', ellipsis: true },
          { title: '学费方案', dataIndex: 'plan_title' },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: StaffEnrolment['state'], r) => (
              <>
                <Tag color={enrolmentStateColors[s]}>{enrolmentStateNames[s]}</Tag>
                {r.exit_requested_at && r.state !== 'exited' && <Tag color="orange">退学待审</Tag>}
              </>
            ),
          },
          {
            title: '已缴 / 总学费',
            key: 'paid',
            align: 'right',
            render: (_, r) => `${yuan(r.paid_fen)} / ${yuan(r.total_fen)}`,
          },
          {
            title: '下次到期',
            key: 'next_due_at',
            render: (_, r) =>
              r.overdue ? (
                <Typography.Text type="danger">{when(r.next_due_at)}（已逾期）</Typography.Text>
              ) : (
                when(r.next_due_at)
              ),
          },
          timeColumn('报名时间', 'created_at', true),
        ]}
      />
      <EnrolmentDrawer id={open} onClose={() => show(null)} />
    </>
  )
}
