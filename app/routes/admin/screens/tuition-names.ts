import { useQuery } from '@tanstack/react-query'
import type { ListPage } from '#shared/api/admin-list.ts'
import { api } from '../lib/client.ts'
import { useMe } from '../lib/me.ts'

// What the system-course screens (学费方案, 合同模板, 报名学员) name the same way.

export const planKindNames = { full: '全款', deposit: '定金 + 尾款', instalments: '分期' } as const

export const enrolmentStateColors: Record<string, string> = {
  offered: 'blue',
  signed: 'cyan',
  paying: 'gold',
  enrolled: 'green',
  paused: 'purple',
  overdue: 'red',
  exited: 'default',
}

/** What happened to an enrolment (its event log's reasons). */
export const enrolmentEventNames: Record<string, string> = {
  offered: '发出报名',
  contract_signed: '签署合同',
  paid: '缴费',
  overdue: '欠费暂停',
  due_extended: '延期缴费',
  paused: '休学',
  resumed: '复学',
  exit_requested: '申请退学',
  exited: '退学',
}

/** Who made a change: `admin:12` → 员工 12, `member:3` → 学员, `order:ZX…` → 订单 ZX…, `system` → 系统. */
export function actorName(actor: string) {
  const [kind, id] = actor.split(':')
  if (kind === 'admin') return `员工 ${id}`
  if (kind === 'member') return '学员本人'
  if (kind === 'order') return `订单 ${id}`
  return '系统'
}

/**
 * The system courses (for the plans' and enrolments' course choices), when the caller may read the catalogue;
 * `title(id)` names a course (`课程 12` when it is not among them).
 */
export function useSystemCourses() {
  const { may } = useMe()
  const query = useQuery({
    queryKey: ['catalogue', 'system-courses'],
    queryFn: () =>
      api.get<ListPage<{ id: number; title: string }>>('/admin/courses', { type: 'system', page_size: 100 }),
    enabled: may('courses.read'),
  })
  const list = query.data?.list ?? []
  return {
    options: list.map((c) => ({ value: c.id, label: `${c.title}（ID ${c.id}）` })),
    title: (id: number) => list.find((c) => c.id === id)?.title ?? `课程 ${id}`,
  }
}
