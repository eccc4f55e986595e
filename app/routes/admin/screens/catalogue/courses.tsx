import { PlusOutlined } from '@ant-design/icons'
import { Button, Tag, Typography } from 'antd'
import { useNavigate } from 'react-router'
import { ConsoleTable } from '../../lib/console-table.tsx'
import { when, yuan } from '../../lib/format.ts'
import { csvExport, pagedLoad } from '../../lib/list.ts'
import { useMe } from '../../lib/me.ts'
import { courseStatusColors, courseStatusNames, courseTypeNames, options } from './names.ts'
import { categoryOptions, useCategories, type Course } from './use-catalogue.ts'

/** Courses of all four types and every status: search by title, filter, sort, export; a row opens its editor. */
export default function Courses() {
  const navigate = useNavigate()
  const { may } = useMe()
  const categories = useCategories().data
  const categoryName = new Map(categoryOptions(categories).map((o) => [o.value, o.label]))
  return (
    <>
      <Typography.Title level={4}>课程</Typography.Title>
      <ConsoleTable<Course>
        id="courses"
        rowKey="id"
        searchPlaceholder="课程标题"
        filters={[
          { name: 'type', label: '类型', type: 'select', options: options(courseTypeNames) },
          { name: 'status', label: '状态', type: 'select', options: options(courseStatusNames) },
          {
            name: 'category_id',
            label: '分类',
            type: 'select',
            options: categoryOptions(categories).map((o) => ({ value: String(o.value), label: o.label })),
          },
        ]}
        load={pagedLoad<Course>('/admin/courses')}
        onExport={csvExport('/admin/courses')}
        toolbar={
          may('catalogue.edit') && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => void navigate('/admin/catalogue/courses/new')}
            >
              新建课程
            </Button>
          )
        }
        onRow={(c) => ({
          onClick: () => void navigate(`/admin/catalogue/courses/${c.id}`),
          style: { cursor: 'pointer' },
        })}
        empty="没有符合条件的课程。换个筛选条件，或点「新建课程」。"
        columns={[
          { title: 'ID', dataIndex: 'id', key: 'id', sorter: true, width: 80 },
          {
            title: '封面',
            dataIndex: 'cover_url',
            width: 96,
            render: (src: string) => <img src={src} alt="" className="zx-console-cover" />,
          },
          { title: '标题', dataIndex: 'title', render: (t: string) => <a>{t}</a> },
          { title: '类型', dataIndex: 'type', render: (t: string) => courseTypeNames[t] ?? t },
          { title: '分类', dataIndex: 'category_id', render: (id: number) => categoryName.get(id) ?? id },
          {
            title: '售价',
            dataIndex: 'price_fen',
            key: 'price_fen',
            sorter: true,
            align: 'right',
            render: (fen: number, c) => (c.is_free ? '免费' : yuan(fen)),
          },
          { title: '积分价', dataIndex: 'points_price', align: 'right', render: (p: number | null) => p ?? '—' },
          { title: 'VIP 免费', dataIndex: 'vip_free', render: (v: boolean) => (v ? '是' : '—') },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: string) => <Tag color={courseStatusColors[s]}>{courseStatusNames[s] ?? s}</Tag>,
          },
          { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true },
          { title: '更新时间', dataIndex: 'updated_at', key: 'updated_at', sorter: true, render: when },
        ]}
      />
    </>
  )
}
