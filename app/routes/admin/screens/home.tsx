import { useQuery } from '@tanstack/react-query'
import { Card, Col, Row, Statistic, Typography } from 'antd'
import { Link } from 'react-router'
import type { ListPage } from '#shared/api/admin-list.ts'
import { api } from '../lib/client.ts'
import { useMe } from '../lib/me.ts'
import { Sections } from '../nav.ts'

/** The workbench: the screens this member's roles open, and the refund requests waiting (finance). */
export default function Home() {
  const { me, may } = useMe()
  const pending = useQuery({
    queryKey: ['refunds', 'pending'],
    queryFn: () => api.get<ListPage<unknown>>('/admin/refunds', { state: 'requested', page_size: 1 }),
    enabled: may('refunds.read'),
  })
  const screens = Sections.flatMap((s) => s.items.map((i) => ({ ...i, section: s.label }))).filter((i) =>
    may(i.permission),
  )
  return (
    <>
      <Typography.Title level={4}>你好，{me?.nickname}</Typography.Title>
      <Row gutter={[16, 16]}>
        {may('refunds.read') && (
          <Col xs={24} md={8}>
            <Card>
              <Link to="/admin/sales/refunds?state=requested">
                <Statistic title="待审批退款" value={pending.data ? pending.data.total : '—'} />
              </Link>
            </Card>
          </Col>
        )}
        {screens.map((i) => (
          <Col key={i.path} xs={12} md={8} lg={6}>
            <Link to={i.path}>
              <Card hoverable size="small" title={i.section}>
                {i.label}
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </>
  )
}
