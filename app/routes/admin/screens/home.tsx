import { ReloadOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Card, Col, Empty, List, Row, Segmented, Space, Statistic, Table, Tag, Typography } from 'antd'
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import type { Dashboard } from '#server/modules/dashboard/dashboard.schema.ts'
import type { ChartOption } from '../lib/chart.tsx'
import { api } from '../lib/client.ts'
import { when, yuan } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { kindNames, payMethodNames } from './names.ts'

// ECharts is a chunk of its own: the figures show at once, the charts when it arrives.
const Chart = lazy(() => import('../lib/chart.tsx'))

type Period = Dashboard['today']
const yuanNumber = (fen: number | undefined) => (fen ?? 0) / 100
const shortDay = (day: string) => day.slice(5).replace('-', '/')

/** A figure of today with the last 30 days under it. */
function Figure(props: { title: string; today?: number; month?: number; money?: boolean }) {
  const format = (n: number | undefined) => (props.money ? yuan(n ?? 0) : String(n ?? 0))
  return (
    <Card size="small" className="zx-dash-figure">
      <Statistic
        title={props.title}
        value={props.money ? yuanNumber(props.today) : (props.today ?? 0)}
        precision={props.money ? 2 : 0}
        prefix={props.money ? '¥' : undefined}
      />
      <Typography.Text type="secondary">近 30 天 {format(props.month)}</Typography.Text>
    </Card>
  )
}

/** A small switch between `names` (value → label), as over a chart. */
function Toggle<V extends string>(props: { value: V; onChange: (v: V) => void; names: Record<V, string> }) {
  const options = Object.entries<string>(props.names).map(([value, label]) => ({ value: value as V, label }))
  return <Segmented<V> size="small" value={props.value} onChange={props.onChange} options={options} />
}

function ChartCard({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card size="small" title={title} extra={extra} className="zx-dash-card">
      <Suspense fallback={<div className="zx-dash-chart-wait">图表加载中…</div>}>{children}</Suspense>
    </Card>
  )
}

/** Daily revenue stacked by kind, with refunds and the paid orders on a second axis. */
function revenueOption(d: Dashboard): ChartOption {
  const kinds = [...new Set(d.days.flatMap((x) => x.by_kind?.map((k) => k.key) ?? []))]
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? v.toFixed(2) : String(v)) },
    legend: { top: 0, itemGap: 16 },
    grid: { left: 56, right: 40, top: 40, bottom: 28 },
    xAxis: { type: 'category', data: d.days.map((x) => shortDay(x.day)) },
    yAxis: [
      { type: 'value', name: '元' },
      { type: 'value', name: '单', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      ...kinds.map((k) => ({
        type: 'bar' as const,
        stack: 'revenue',
        name: `收入·${kindNames[k] ?? k}`,
        data: d.days.map((x) => yuanNumber(x.by_kind?.find((b) => b.key === k)?.fen)),
      })),
      {
        type: 'line' as const,
        name: '退款',
        showSymbol: false,
        data: d.days.map((x) => yuanNumber(x.refunds_fen)),
        itemStyle: { color: '#cf1322' },
      },
      {
        type: 'line' as const,
        name: '支付订单',
        showSymbol: false,
        yAxisIndex: 1,
        data: d.days.map((x) => x.paid_orders ?? 0),
        itemStyle: { color: '#8c8c8c' },
        lineStyle: { type: 'dashed' },
      },
    ],
  }
}

function pieOption(split: Period['by_kind'], names: Record<string, string>): ChartOption {
  return {
    tooltip: { trigger: 'item', valueFormatter: (v) => (typeof v === 'number' ? `¥${v.toFixed(2)}` : String(v)) },
    legend: { bottom: 0, type: 'plain' },
    series: [
      {
        type: 'pie',
        radius: ['40%', '68%'],
        center: ['50%', '44%'],
        label: { formatter: '{b}\n{d}%' },
        data: (split ?? []).map((s) => ({ name: names[s.key] ?? s.key, value: yuanNumber(s.fen) })),
      },
    ],
  }
}

function membersOption(d: Dashboard): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 40, right: 16, top: 16, bottom: 28 },
    xAxis: { type: 'category', data: d.days.map((x) => shortDay(x.day)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { type: 'bar', name: '新会员', data: d.days.map((x) => x.new_members ?? 0), itemStyle: { color: '#13a8a8' } },
    ],
  }
}

/** Work waiting for staff: refunds to decide or retry, transcodes that failed. */
function Pending({ d }: { d: Dashboard }) {
  const p = d.pending
  const items: ReactNode[] = []
  if (p.refunds_to_approve !== undefined)
    items.push(
      <Link key="requested" to="/admin/sales/refunds?state=requested">
        <Statistic title="待审批退款" value={p.refunds_to_approve} styles={warn(p.refunds_to_approve)} />
      </Link>,
      <Link key="failed" to="/admin/sales/refunds?state=failed">
        <Statistic title="退款失败待重试" value={p.refunds_failed} styles={warn(p.refunds_failed)} />
      </Link>,
    )
  if (p.transcodes_failed !== undefined)
    items.push(
      <Statistic key="media" title="转码失败" value={p.transcodes_failed} styles={warn(p.transcodes_failed)} />,
    )
  if (items.length === 0) return null
  return (
    <Card size="small" title="待办" className="zx-dash-card">
      <Space size={48} wrap>
        {items}
      </Space>
      {p.failed_transcodes && p.failed_transcodes.length > 0 && (
        <List
          size="small"
          className="zx-dash-failed"
          dataSource={p.failed_transcodes}
          renderItem={(f) => (
            <List.Item>
              <Space wrap>
                <Tag color="red">转码失败</Tag>
                <span>
                  视频 {f.video_id}《{f.title || '未命名'}》
                </span>
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 420 }}>
                  {f.error ?? '未知错误'}
                </Typography.Text>
                <Typography.Text type="secondary">{when(f.failed_at)}</Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  )
}

const warn = (n: number | undefined) => (n ? { content: { color: '#cf1322' } } : undefined)

/**
 * The dashboard (the console's home): today and the last 30 Beijing days from GET /api/admin/dashboard, in the
 * parts the member's roles open (the server leaves the others out): sales with charts, members, learning, the
 * top courses and the work waiting.
 */
export default function Home() {
  const { me } = useMe()
  const [split, setSplit] = useState<'by_kind' | 'by_pay_method'>('by_kind')
  const [period, setPeriod] = useState<'today' | 'last_30_days'>('last_30_days')
  const q = useQuery({ queryKey: ['dashboard'], queryFn: () => api.get<Dashboard>('/admin/dashboard') })
  const d = q.data
  const charts = useMemo(() => d && { revenue: revenueOption(d), members: membersOption(d) }, [d])

  const header = (
    <div className="zx-dash-head">
      <Typography.Title level={4} style={{ margin: 0 }}>
        你好，{me?.nickname}
      </Typography.Title>
      <Space>
        {d && <Typography.Text type="secondary">数据截至 {when(d.as_of)}（北京时间，按自然日）</Typography.Text>}
        <Button icon={<ReloadOutlined />} loading={q.isFetching} onClick={() => void q.refetch()}>
          刷新
        </Button>
      </Space>
    </div>
  )
  if (q.error)
    return (
      <>
        {header}
        <div className="zx-console-error">工作台数据加载失败：{q.error.message}。请点“刷新”重试。</div>
      </>
    )
  if (!d || !charts)
    return (
      <>
        {header}
        <Card loading />
      </>
    )

  const shows = new Set(d.parts)
  const t = d.today
  const m = d.last_30_days
  const chosen = d[period][split]
  return (
    <>
      {header}
      <Row gutter={[16, 16]}>
        {shows.has('sales') && (
          <>
            <Col xs={12} lg={8} xl={4}>
              <Figure title="今日收入" money today={t.revenue_fen} month={m.revenue_fen} />
            </Col>
            <Col xs={12} lg={8} xl={4}>
              <Figure title="今日支付订单" today={t.paid_orders} month={m.paid_orders} />
            </Col>
            <Col xs={12} lg={8} xl={4}>
              <Figure title={`今日退款（${t.refunds ?? 0} 笔）`} money today={t.refunds_fen} month={m.refunds_fen} />
            </Col>
          </>
        )}
        {shows.has('members') && (
          <Col xs={12} lg={8} xl={4}>
            <Figure title="今日新会员" today={t.new_members} month={m.new_members} />
          </Col>
        )}
        {shows.has('learning') && (
          <>
            <Col xs={12} lg={8} xl={4}>
              <Figure title="今日活跃学员" today={t.active_learners} month={m.active_learners} />
            </Col>
            <Col xs={12} lg={8} xl={4}>
              <Figure title="今日播放课时" today={t.plays} month={m.plays} />
            </Col>
          </>
        )}
        <Col span={24}>
          <Pending d={d} />
        </Col>
        {shows.has('sales') && (
          <>
            <Col xs={24} xl={16}>
              <ChartCard title={`近 30 天收入与退款（净收入 ${yuan(m.net_fen ?? 0)}）`}>
                <Chart option={charts.revenue} height={300} label="近 30 天每日收入、退款与支付订单" />
              </ChartCard>
            </Col>
            <Col xs={24} xl={8}>
              <ChartCard
                title="收入构成"
                extra={
                  <Space size={4}>
                    <Toggle value={period} onChange={setPeriod} names={{ today: '今日', last_30_days: '30 天' }} />
                    <Toggle value={split} onChange={setSplit} names={{ by_kind: '类型', by_pay_method: '支付方式' }} />
                  </Space>
                }
              >
                {chosen && chosen.length > 0 ? (
                  <Chart
                    option={pieOption(chosen, split === 'by_kind' ? kindNames : payMethodNames)}
                    height={300}
                    label={split === 'by_kind' ? '收入按订单类型' : '收入按支付方式'}
                  />
                ) : (
                  <Empty description={period === 'today' ? '今天还没有收入' : '近 30 天没有收入'} />
                )}
              </ChartCard>
            </Col>
          </>
        )}
        {shows.has('members') && (
          <Col xs={24} xl={shows.has('sales') ? 10 : 24}>
            <ChartCard title={`近 30 天新会员（共 ${m.new_members ?? 0} 人）`}>
              <Chart option={charts.members} height={260} label="近 30 天每日新会员" />
            </ChartCard>
          </Col>
        )}
        {d.top_courses && (
          <Col xs={24} xl={shows.has('members') ? 14 : 24}>
            <Card size="small" title="近 30 天热销课程" className="zx-dash-card">
              <Table
                size="small"
                rowKey="course_id"
                pagination={false}
                dataSource={d.top_courses}
                locale={{ emptyText: '近 30 天还没有课程售出' }}
                columns={[
                  { title: '#', key: 'rank', width: 40, render: (_v, _r, i) => i + 1 },
                  { title: '课程', dataIndex: 'title', ellipsis: true },
                  { title: '售出', dataIndex: 'sold', align: 'right', width: 72 },
                  { title: '销售额', dataIndex: 'sales_fen', align: 'right', width: 110, render: yuan },
                ]}
              />
            </Card>
          </Col>
        )}
      </Row>
    </>
  )
}
