import { InboxOutlined } from '@ant-design/icons'
import { Alert, App, Button, Modal, Progress, Space, Typography, Upload } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { Upload as TusUpload, type DetailedError } from 'tus-js-client'
import type { MediaListRow } from '#server/modules/admin/admin.schema.ts'
import { getToken } from '../lib/token.ts'
import { bytes } from '../lib/format.ts'

/** The resumable upload endpoint (tus 1.0, server/modules/admin/admin-uploads.routes.ts). */
const ENDPOINT = '/api/admin/uploads'
/** Bytes per PATCH: a dropped connection costs at most this much, and proxies with body limits let it through. */
const CHUNK_BYTES = 8 * 1024 * 1024
const ACCEPT = 'video/*,.mp4,.mov,.m4v,.webm,.mkv,.avi,.ts,.flv'

type Phase = 'choose' | 'uploading' | 'paused' | 'failed' | 'done'

/** The envelope's message of an upload the server refused (it keeps the envelope on tus answers); null otherwise. */
function refusalOf(error: Error | DetailedError) {
  const body = 'originalResponse' in error ? error.originalResponse?.getBody() : undefined
  try {
    return (JSON.parse(body ?? '') as { msg?: string }).msg ?? null
  } catch {
    return null
  }
}

/**
 * Uploads a lesson's video through tus (resumable): a progress bar, pause and resume, and a file chosen again after
 * a closed tab or a dropped connection continues where it stopped (the browser remembers the upload for a day,
 * keyed by the video and the file). When the last byte arrives the server checks the file and queues transcoding.
 */
export function MediaUpload({
  video,
  onClose,
  onUploaded,
}: {
  video: MediaListRow
  onClose: () => void
  onUploaded: () => void
}) {
  const { message, modal } = App.useApp()
  const [phase, setPhase] = useState<Phase>('choose')
  const [sent, setSent] = useState({ bytes: 0, total: 0 })
  const [file, setFile] = useState<File | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [resumed, setResumed] = useState(false)
  const upload = useRef<TusUpload | null>(null)
  const replacing = video.media.playable

  // Leaving the screen pauses the upload (it resumes when the same file is chosen again).
  useEffect(() => () => void upload.current?.abort(), [])

  const start = async (chosen: File) => {
    setFile(chosen)
    setProblem(null)
    setSent({ bytes: 0, total: chosen.size })
    const tus = new TusUpload(chosen, {
      endpoint: ENDPOINT,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: { video_id: String(video.id), filename: chosen.name, filetype: chosen.type },
      headers: { 'zxb-token': getToken() ?? '' },
      // The same file for another lesson is another upload.
      fingerprint: () => Promise.resolve(`zx-media-${video.id}-${chosen.name}-${chosen.size}-${chosen.lastModified}`),
      removeFingerprintOnSuccess: true,
      onProgress: (b, total) => setSent({ bytes: b, total }),
      onSuccess: () => {
        setPhase('done')
        message.success(`「${video.title}」上传完成，已排队转码`)
        onUploaded()
      },
      onError: (error) => {
        const refused = refusalOf(error)
        // Refused (not a video, too large, being transcoded): choose another file. Else the network: resume.
        setProblem(refused ?? '网络中断，上传已暂停。点“继续上传”从断点接着传')
        setPhase(refused ? 'choose' : 'failed')
      },
    })
    upload.current = tus
    const previous = await tus.findPreviousUploads()
    if (previous[0]) {
      tus.resumeFromPreviousUpload(previous[0])
      setResumed(true)
    }
    setPhase('uploading')
    tus.start()
  }

  const pause = () => {
    void upload.current?.abort()
    setPhase('paused')
  }
  const resume = () => {
    setProblem(null)
    setPhase('uploading')
    upload.current?.start()
  }
  const close = () => {
    if (phase !== 'uploading') return onClose()
    modal.confirm({
      title: '暂停上传并关闭？',
      content: '已上传的部分保留一天：稍后在这里选择同一个文件，会从断点继续上传。',
      okText: '暂停并关闭',
      cancelText: '继续上传',
      onOk: () => {
        pause()
        onClose()
      },
    })
  }

  const percent = sent.total ? Math.floor((sent.bytes / sent.total) * 100) : 0
  return (
    <Modal
      open
      title={`${replacing ? '替换视频' : '上传视频'}：${video.title}`}
      onCancel={close}
      footer={
        <Space>
          {phase === 'uploading' && <Button onClick={pause}>暂停</Button>}
          {(phase === 'paused' || phase === 'failed') && file && (
            <Button type="primary" onClick={resume}>
              继续上传
            </Button>
          )}
          <Button onClick={close}>{phase === 'done' ? '完成' : '关闭'}</Button>
        </Space>
      }
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {video.course.title}
        {video.chapter ? ` · ${video.chapter.title}` : ''}
      </Typography.Paragraph>
      {replacing ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="替换后会怎样"
          description="学员继续观看现在的视频，直到新文件转码完成；转码完成后自动换成新视频，旧的转码文件随即删除。转码失败时现在的视频照常播放，可以重试或重新上传。"
        />
      ) : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="上传后自动排队转码（360p，源文件够清晰时加 720p），完成后学员即可观看。支持断点续传：中断后选择同一个文件即从断点继续。"
        />
      )}
      {problem && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={problem} />}
      {phase === 'choose' ? (
        <Upload.Dragger
          accept={ACCEPT}
          showUploadList={false}
          beforeUpload={(f) => {
            void start(f)
            return false
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖入视频文件</p>
          <p className="ant-upload-hint">MP4、MOV、WebM、MKV、AVI、TS、FLV</p>
        </Upload.Dragger>
      ) : (
        <div aria-label="上传进度">
          <Typography.Text strong>{file?.name}</Typography.Text>
          <Progress
            percent={percent}
            status={phase === 'failed' ? 'exception' : phase === 'done' ? 'success' : 'active'}
          />
          <Typography.Text type="secondary">
            {bytes(sent.bytes)} / {bytes(sent.total)}
            {resumed ? '（从上次中断处继续）' : ''}
            {phase === 'paused' ? ' · 已暂停' : ''}
            {phase === 'done' ? ' · 上传完成，已排队转码，可关闭窗口在列表中查看进度' : ''}
          </Typography.Text>
        </div>
      )}
    </Modal>
  )
}
