import { UploadOutlined } from '@ant-design/icons'
import { App, Button, Image, Space, Upload } from 'antd'
import { useState } from 'react'
import { api } from './client.ts'

/**
 * A form field holding an image URL: the operator picks a file, it is uploaded to POST /api/admin/images
 * (re-encoded to WebP by the server) and the field takes the URL it answers. Used as `<Form.Item name="cover_url">
 * <ImageField /></Form.Item>`.
 */
export function ImageField(props: { value?: string | null; onChange?: (url: string) => void; label?: string }) {
  const { message } = App.useApp()
  const [busy, setBusy] = useState(false)
  return (
    <Space align="start">
      {props.value ? (
        <Image src={props.value} width={120} alt={props.label ?? '图片'} />
      ) : (
        <div className="zx-console-image-empty">未上传</div>
      )}
      <Upload
        accept="image/jpeg,image/png,image/webp"
        showUploadList={false}
        customRequest={async ({ file }) => {
          setBusy(true)
          try {
            const image = await api.upload<{ url: string }>('/admin/images', file as Blob)
            props.onChange?.(image.url)
          } catch (e) {
            message.error(`上传失败：${(e as Error).message}`)
          } finally {
            setBusy(false)
          }
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          {props.value ? '更换图片' : '上传图片'}
        </Button>
        <div className="zx-console-hint">JPG、PNG 或 WebP，5 MB 以内</div>
      </Upload>
    </Space>
  )
}
