import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Progress, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import type { MediaListRow } from '#server/modules/admin/admin.schema.ts'
import type { MediaState } from '#shared/api/admin-media.ts'
import { api } from '../lib/client.ts'
import { useConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { CourseFilter } from '../lib/course-filter.tsx'
import { clock, when } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { MediaPreview } from './media-preview.tsx'
import { MediaUpload } from './media-upload.tsx'

const stateNames: Record<MediaState, string> = {
  none: '未上传',
  uploaded: '排队中',
  transcoding: '转码中',
  ready: '可播放',
  failed: '转码失败',
}
const stateColors: Partial<Record<MediaState, string>> = {
  uploaded: 'gold',
  transcoding: 'processing',
  ready: 'success',
  failed: 'error',
}
/** How often the list reloads while a video waits for or runs its transcoding. */
const POLL_MS = 2000

/** Each rendition of a transcoding and how far it is; the renditions a ready video plays in. */
function Renditions({ media }: { media: MediaListRow['media'] }) {
  if (media.status === 'transcoding' && media.rendition_progress.length === 0)
    return <Typography.Text type="secondary">正在分析源文件…</Typography.Text>
  if (media.status === 'transcoding')
    return (
      <div className="zx-console-renditions">
        {media.rendition_progress.map((r) => (
          <div key={r.name} className="zx-console-rendition" aria-label={`${r.name} 转码进度`}>
            <span>{r.name}</span>
            <Progress percent={r.percent} size="small" status="active" />
          </div>
        ))}
      </div>
    )
  if (media.status === 'uploaded') return <Typography.Text type="secondary">等待转码</Typography.Text>
  if (media.renditions.length > 0)
    return (
      <Space size={4} wrap>
        {media.renditions.map((r) => (
          <Tag key={r.name} color="green">
            {r.name} ✓
          </Tag>
        ))}
      </Space>
    )
  return <Typography.Text type="secondary">—</Typography.Text>
}

/**
 * 媒体: every lesson's video with its course, chapter, length and state, per-rendition transcoding progress (the list
 * polls while anything waits or transcodes), and the actions: upload or replace (resumable), retry a failed
 * transcode, preview the HLS. `?video=<id>` (the catalogue's lesson links) shows that one video.
 */
export default function Media() {
  const { message } = App.useApp()
  const confirm = useConfirm()
  const { may } = useMe()
  const client = useQueryClient()
  const [search, setSearch] = useSearchParams()
  const [uploading, setUploading] = useState<MediaListRow | null>(null)
  const [previewing, setPreviewing] = useState<MediaListRow | null>(null)
  const one = search.get('video')
  const refresh = () => void client.invalidateQueries({ queryKey: tableKey('/admin/media') })

  const retry = useMutation({
    mutationFn: (v: MediaListRow) => api.post(`/admin/videos/${v.id}/transcode`),
    onSuccess: (_m, v) => {
      message.success(`「${v.title}」已重新排队转码`)
      refresh()
    },
    onError: (e) => message.error(e.message),
  })
  const confirmRetry = (v: MediaListRow) =>
    confirm({
      title: '重新转码',
      content: `用已上传的源文件「${v.media.source_name ?? ''}」重新转码「${v.title}」。上次失败原因：${v.media.error ?? '未知'}`,
      okText: '重新转码',
      // A refusal (no file uploaded, or it is transcoding already) stays in the dialog with its reason.
      run: () => retry.mutateAsync(v),
    })

  const edit = may('catalogue.edit')
  return (
    <>
      <Typography.Title level={4}>媒体</Typography.Title>
      {one && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`只显示视频 #${one}`}
          action={
            <Button
              size="small"
              onClick={() => {
                const next = new URLSearchParams(search)
                next.delete('video')
                setSearch(next)
              }}
            >
              显示全部视频
            </Button>
          }
        />
      )}
      <ConsoleTable<MediaListRow>
        path="/admin/media"
        csv="courses.read"
        search="搜索视频标题"
        filters={[selectFilter('state', '状态', stateNames)]}
        toolbar={<CourseFilter />}
        refetchInterval={(rows) =>
          rows.some((r) => r.media.status === 'uploaded' || r.media.status === 'transcoding') ? POLL_MS : false
        }
        empty="没有符合条件的视频。换个标题、状态或课程试试。"
        none="还没有视频。视频在课程的章节里添加，添加后在这里上传文件。"
        columns={[
          {
            title: '视频',
            key: 'title',
            sorter: true,
            render: (_, v) => (
              <div className="zx-console-video-title">
                <Typography.Text strong>{v.title}</Typography.Text>
                <Typography.Text type="secondary"> #{v.id}</Typography.Text>
              </div>
            ),
          },
          {
            title: '课程 / 章节',
            key: 'course',
            render: (_, v) => (
              <div className="zx-console-video-course">
                <Link to={`/admin/media?course_id=${v.course.id}`}>{v.course.title}</Link>
                {v.chapter && <div className="zx-console-muted">{v.chapter.title}</div>}
              </div>
            ),
          },
          { title: '时长', key: 'duration', sorter: true, render: (_, v) => clock(v.duration_seconds) },
          {
            title: '状态',
            key: 'state',
            render: (_, v) => (
              <>
                <Tag color={stateColors[v.media.status]}>{stateNames[v.media.status]}</Tag>
                {v.media.error && (
                  <Typography.Paragraph
                    type="danger"
                    className="zx-console-media-error"
                    ellipsis={{ rows: 2, tooltip: v.media.error }}
                  >
                    {v.media.error}
                  </Typography.Paragraph>
                )}
                {v.media.playable && v.media.status !== 'ready' && (
                  <div className="zx-console-muted">学员仍在观看上一版</div>
                )}
              </>
            ),
          },
          { title: '清晰度 / 转码进度', key: 'renditions', render: (_, v) => <Renditions media={v.media} /> },
          // Left out below 1200 px (tablets), where the columns that act come first.
          { title: '更新时间', key: 'updated', responsive: ['xl'], render: (_, v) => when(v.media.updated_at) },
          {
            title: '操作',
            key: 'actions',
            fixed: 'right',
            render: (_, v) => (
              <Space size="small" wrap>
                {edit && (
                  <Button
                    size="small"
                    disabled={v.media.status === 'transcoding'}
                    title={v.media.status === 'transcoding' ? '转码中，完成后才能替换' : undefined}
                    onClick={() => setUploading(v)}
                  >
                    {v.media.status === 'none' ? '上传' : '替换'}
                  </Button>
                )}
                {edit && v.media.status === 'failed' && (
                  <Button size="small" danger onClick={() => confirmRetry(v)}>
                    重试
                  </Button>
                )}
                {may('media.preview') && v.media.playable && (
                  <Button size="small" type="primary" onClick={() => setPreviewing(v)}>
                    预览
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {uploading && <MediaUpload video={uploading} onClose={() => setUploading(null)} onUploaded={refresh} />}
      {previewing && <MediaPreview video={previewing} onClose={() => setPreviewing(null)} />}
    </>
  )
}
