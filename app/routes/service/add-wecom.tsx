import { QrScreen } from './qr-screen.tsx'

export function meta() {
  return [{ title: '添加老师企业微信 - 自学' }]
}

/** /data/wwx: the staff member's WeCom contact QR (GET /contact/qrcode). */
export default function AddWecom() {
  return <QrScreen title="添加老师企业微信" path="/contact/qrcode" alt="老师的企业微信二维码" />
}
