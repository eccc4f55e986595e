import { PlusOutlined } from '@ant-design/icons'
import { Button, Typography } from 'antd'
import type { ReactNode } from 'react'

/** A list's primary add button (新建…), in a list's head or a table's toolbar. */
export function AddButton(props: { label: string; onClick: () => void; className?: string }) {
  return (
    <Button className={props.className} type="primary" icon={<PlusOutlined />} onClick={props.onClick}>
      {props.label}
    </Button>
  )
}

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
        {add && <AddButton className="zx-console-actions" {...add} />}
      </div>
      {error && <div className="zx-console-error">加载失败：{error.message}。请刷新重试。</div>}
    </>
  )
}
