import { PlusOutlined } from '@ant-design/icons'
import { Button, Typography } from 'antd'
import type { ReactNode } from 'react'

/**
 * A list screen's head: its title, anything beside it (`extra`), the primary add button (only for staff who may
 * edit: pass false otherwise), then the list's load error if there is one.
 */
export function ListHeader(props: {
  title: string
  extra?: ReactNode
  add: { label: string; onClick: () => void } | false
  error: Error | null
}) {
  const { add, error } = props
  return (
    <>
      <div className="zx-console-title-row">
        <Typography.Title level={4}>{props.title}</Typography.Title>
        {props.extra}
        {add && (
          <Button className="zx-console-actions" type="primary" icon={<PlusOutlined />} onClick={add.onClick}>
            {add.label}
          </Button>
        )}
      </div>
      {error && <div className="zx-console-error">加载失败：{error.message}。请刷新重试。</div>}
    </>
  )
}
