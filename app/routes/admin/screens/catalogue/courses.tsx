import { useNavigate } from 'react-router'
import { idColumn, stateColumn, timeColumn } from '../../lib/columns.tsx'
import { ConsoleTable, selectFilter } from '../../lib/console-table.tsx'
import { yuan } from '../../lib/format.ts'
import { AddButton } from '../../lib/list-header.tsx'
import { useMe } from '../../lib/me.ts'
import { courseStatusColors, courseStatusNames, courseTypeNames } from './names.ts'
import { categoryOptions, useCategories, type Course } from './use-catalogue.ts'

/** Courses of all four types and every status: search by title, filter, sort, export; a row opens its editor. */
export default function Courses() {
  const navigate = useNavigate()
  const { may } = useMe()
  const categories = useCategories().data
  const categoryName = new Map(categoryOptions(categories).map((o) => [o.value, o.label]))
  return (
    <ConsoleTable<Course>
      title="课程"
      path="/admin/courses"
      csv={{ permission: 'courses.read', own: true }}
      search="课程标题"
      filters={[
        selectFilter('type', '类型', courseTypeNames),
        selectFilter('status', '状态', courseStatusNames),
        selectFilter(
          'category_id',
          '分类',
          categoryOptions(categories).map((o) => ({ value: String(o.value), label: o.label })),
        ),
      ]}
      toolbar={
        may('catalogue.edit') && (
          <AddButton label="新建课程" onClick={() => void navigate('/admin/catalogue/courses/new')} />
        )
      }
      onRow={(c) => ({
        onClick: () => void navigate(`/admin/catalogue/courses/${c.id}`),
        style: { cursor: 'pointer' },
      })}
      empty="没有符合条件的课程。换个筛选条件，或点「新建课程」。"
      columns={[
        idColumn('ID', 80),
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
        stateColumn('状态', 'status', courseStatusNames, courseStatusColors),
        { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true },
        timeColumn('更新时间', 'updated_at', true),
      ]}
    />
  )
}
