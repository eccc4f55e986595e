import { useQuery } from '@tanstack/react-query'
import { Checkbox, Form, Input, InputNumber, Select, Space, Tag } from 'antd'
import { useSearchParams } from 'react-router'
import type { z } from 'zod'
import type { PlanView } from '#server/modules/tuition/tuition.schema.ts'
import { PlanBody } from '#shared/api/tuition.ts'
import { api } from '../lib/client.ts'
import { idColumn, moneyColumn, onOffColumn } from '../lib/columns.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { RadioField, SwitchField } from '../lib/fields.tsx'
import { FormDialog } from '../lib/form-dialog.tsx'
import { fenOf, yuan } from '../lib/format.ts'
import { ListHeader } from '../lib/list-header.tsx'
import { useMe } from '../lib/me.ts'
import { WholeTable } from '../lib/whole-list.tsx'
import { withRequired, zodBodyRule } from '../lib/zod-rule.ts'
import { planKindNames, useSystemCourses } from './tuition-names.ts'

type Plan = z.infer<typeof PlanView>

/** The plan form: amounts typed in yuan. */
interface Values {
  course_id?: number
  title: string
  kind: Plan['kind']
  total_yuan?: number
  deposit_yuan?: number
  balance_due_days: number
  instalments: number
  contract_required: boolean
  huabei_allowed: boolean
  huabei_periods: number[]
  huabei_fee_payer: 'buyer' | 'seller'
  study_days: number
  max_pause_days: number
  exit_fee_yuan?: number
}

/** What the API takes from the form: yuan as fen, and only what the kind uses (the rest at the API's defaults). */
const toBody = ({ total_yuan, deposit_yuan, exit_fee_yuan, ...v }: Values) => ({
  ...v,
  total_fen: fenOf(total_yuan),
  deposit_fen: v.kind === 'deposit' ? fenOf(deposit_yuan) : 0,
  instalments: v.kind === 'instalments' ? v.instalments : 1,
  huabei_periods: v.huabei_allowed ? v.huabei_periods : [],
  exit_fee_fen: fenOf(exit_fee_yuan) ?? 0,
})

/** Each field checked by the API's schema as part of the whole body (a deposit below the total, two instalments). */
const rule = (field: keyof z.input<typeof PlanBody>, required?: string) =>
  withRequired(required, zodBodyRule(PlanBody, toBody, field))

const fresh = (courseId?: number): Partial<Values> => ({
  course_id: courseId,
  kind: 'deposit',
  balance_due_days: 30,
  instalments: 3,
  contract_required: true,
  huabei_allowed: false,
  huabei_periods: [],
  huabei_fee_payer: 'buyer',
  study_days: 365,
  max_pause_days: 90,
  exit_fee_yuan: 0,
})

/** How a plan's tuition is paid, in words: 定金 ¥500.00，尾款 30 天内 / 分 6 期（每月）. */
function terms(p: Plan) {
  if (p.kind === 'deposit') return `定金 ${yuan(p.deposit_fen)}，尾款 ${p.balance_due_days} 天内`
  if (p.kind === 'instalments') return `分 ${p.instalments} 期（每月）`
  return '全款，一次付清'
}

/**
 * 学费方案 (issue 15 §3): the plans of each system course, and a new one: in full, a deposit then the balance, or N
 * monthly instalments; whether a contract must be signed first; Alipay Huabei periods and who bears the fee.
 */
export default function TuitionPlans() {
  const { may } = useMe()
  const courses = useSystemCourses()
  const [search, setSearch] = useSearchParams()
  const courseId = Number(search.get('course_id')) || undefined
  const key = ['tuition-plans', courseId ?? 'all']
  const plans = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ list: Plan[] }>('/admin/tuition-plans', { course_id: courseId }),
  })
  const editor = useEditor<Plan, Values>('tuition_plan', () => fresh(courseId))
  const kind = Form.useWatch('kind', editor.form)
  const huabei = Form.useWatch('huabei_allowed', editor.form)
  const create = useWrite(
    (v: Values) => api.post<{ id: number }>('/admin/tuition-plans', toBody(v)),
    (r) => `已新建学费方案 ${r.id}`,
    [['tuition-plans']],
  )

  return (
    <>
      <ListHeader
        title="学费方案"
        extra={
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="全部体系课"
            aria-label="体系课"
            value={courseId}
            options={courses.options}
            onChange={(id?: number) => setSearch(id ? { course_id: String(id) } : {})}
            style={{ width: 260 }}
          />
        }
        add={may('tuition.manage') && { label: '新建方案', onClick: () => editor.open(null) }}
        error={plans.error}
      />
      <WholeTable<Plan>
        rows={plans.data?.list ?? []}
        fetching={plans.isFetching}
        empty="还没有学费方案。点“新建方案”，为体系课设置全款、定金 + 尾款或分期。"
        scroll={{ x: true }}
        columns={[
          idColumn('ID', 60),
          { title: '体系课', dataIndex: 'course_id', render: (id: number) => courses.title(id) },
          { title: '方案', dataIndex: 'title' },
          moneyColumn('总学费', 'total_fen'),
          { title: '缴费安排', key: 'terms', render: (_, p) => terms(p) },
          { title: '合同', dataIndex: 'contract_required', render: (on: boolean) => (on ? '先签合同' : '无需合同') },
          {
            title: '花呗分期',
            key: 'huabei',
            render: (_, p) =>
              p.huabei_allowed ? (
                <Tag color="blue">
                  {p.huabei_periods.join('/')} 期 · {p.huabei_fee_payer === 'seller' ? '商家贴息' : '用户付息'}
                </Tag>
              ) : (
                '—'
              ),
          },
          {
            title: '学习期 / 可休学',
            key: 'days',
            render: (_, p) => `${p.study_days} 天 / ${p.max_pause_days} 天`,
          },
          moneyColumn('退学手续费', 'exit_fee_fen'),
          onOffColumn('状态', 'active', '可报名', '已停用'),
        ]}
      />
      <FormDialog<Values> {...editor.dialog} title="新建学费方案" save={create} width={640} destroyOnHidden>
        <Form.Item label="体系课" name="course_id" rules={rule('course_id', '请选择体系课')}>
          <Select showSearch={{ optionFilterProp: 'label' }} options={courses.options} placeholder="选择体系课" />
        </Form.Item>
        <Form.Item label="方案名称" name="title" rules={rule('title', '请输入方案名称')}>
          <Input maxLength={60} placeholder="如：定金 500 + 尾款" />
        </Form.Item>
        <RadioField label="缴费方式" name="kind" names={planKindNames} buttons />
        <Space wrap>
          <Form.Item label="总学费（元）" name="total_yuan" rules={rule('total_fen', '请输入总学费')}>
            <InputNumber precision={2} style={{ width: 140 }} />
          </Form.Item>
          {kind === 'deposit' && (
            <>
              <Form.Item
                label="定金（元）"
                name="deposit_yuan"
                dependencies={['total_yuan']}
                rules={rule('deposit_fen', '请输入定金')}
              >
                <InputNumber precision={2} style={{ width: 140 }} />
              </Form.Item>
              <Form.Item
                label="尾款期限（天）"
                name="balance_due_days"
                rules={rule('balance_due_days', '请填写尾款期限')}
              >
                <InputNumber precision={0} />
              </Form.Item>
            </>
          )}
          {kind === 'instalments' && (
            <Form.Item label="期数（每月一期）" name="instalments" rules={rule('instalments', '请填写期数')}>
              <InputNumber precision={0} />
            </Form.Item>
          )}
        </Space>
        <SwitchField label="缴费前须签署合同" name="contract_required" />
        <SwitchField label="允许支付宝花呗分期" name="huabei_allowed" />
        {huabei && (
          <Space wrap>
            <Form.Item label="花呗期数" name="huabei_periods" rules={rule('huabei_periods')}>
              <Checkbox.Group options={[3, 6, 12].map((n) => ({ value: n, label: `${n} 期` }))} />
            </Form.Item>
            <RadioField label="分期手续费" name="huabei_fee_payer" names={{ buyer: '用户承担', seller: '商家贴息' }} />
          </Space>
        )}
        <Space wrap>
          <Form.Item label="学习期（天）" name="study_days" rules={rule('study_days', '请填写学习期')}>
            <InputNumber precision={0} />
          </Form.Item>
          <Form.Item
            label="最多可休学（天）"
            name="max_pause_days"
            rules={rule('max_pause_days', '请填写可休学天数，0 为不能休学')}
          >
            <InputNumber precision={0} />
          </Form.Item>
          <Form.Item label="退学手续费（元）" name="exit_fee_yuan" rules={rule('exit_fee_fen')}>
            <InputNumber precision={2} style={{ width: 140 }} />
          </Form.Item>
        </Space>
      </FormDialog>
    </>
  )
}
