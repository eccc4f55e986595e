import { useQuery } from '@tanstack/react-query'
import { Alert, Modal, Space, Spin, Tag, Typography } from 'antd'
import { useEffect, useRef, useState } from 'react'
import type { MediaListRow } from '#server/modules/admin/admin.schema.ts'
import { api } from '../lib/client.ts'
import { clock } from '../lib/format.ts'

interface Play {
  master_url: string
  until_second: number | null
  duration: number
  poster_url: string | null
}

/**
 * Plays a video's HLS as learners get it (signed playlist, encrypted segments) from GET /api/video/play: the
 * access function lets staff with media.preview play any lesson in full. hls.js where the browser has Media Source,
 * the browser's own HLS (Safari) otherwise; hls.js is fetched when a preview opens, never with the list.
 */
export function MediaPreview({ video, onClose }: { video: MediaListRow; onClose: () => void }) {
  const ref = useRef<HTMLVideoElement | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const play = useQuery({
    queryKey: ['play', video.id],
    queryFn: () => api.get<Play>('/video/play', { vid: video.id }),
    staleTime: 0,
    gcTime: 0,
  })
  const src = play.data?.master_url

  useEffect(() => {
    const el = ref.current
    if (!el || !src) return
    let hls: { destroy(): void } | null = null
    let gone = false
    if (typeof window.MediaSource !== 'function' && el.canPlayType('application/vnd.apple.mpegurl')) {
      el.src = src
    } else {
      void import('hls.js/light')
        .then(({ default: Hls }) => {
          if (gone) return
          if (!Hls.isSupported()) return setProblem('这个浏览器不能播放 HLS，请换用 Chrome、Edge 或 Safari')
          const player = new Hls()
          hls = player
          player.on(Hls.Events.ERROR, (_e, data) => {
            if (data.fatal) setProblem(`播放出错（${data.details}），请关闭后重新预览`)
          })
          player.loadSource(src)
          player.attachMedia(el)
        })
        .catch(() => setProblem('播放器加载失败，请刷新页面重试'))
    }
    return () => {
      gone = true
      hls?.destroy()
      el.removeAttribute('src')
      el.load()
    }
  }, [src])

  return (
    <Modal open title={`预览：${video.title}`} onCancel={onClose} footer={null} width={800} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        员工预览：完整播放，不受试看限制；画面与学员看到的一致（加密 HLS，自动切换清晰度）。
      </Typography.Paragraph>
      {play.error ? (
        <Alert type="error" showIcon message={`不能预览：${play.error.message}`} />
      ) : !src ? (
        <Spin />
      ) : (
        <>
          <video
            ref={ref}
            className="zx-console-preview"
            controls
            playsInline
            poster={play.data?.poster_url ?? undefined}
            aria-label="视频预览"
          />
          <Space wrap style={{ marginTop: 8 }}>
            <span>时长 {clock(play.data?.duration ?? 0)}</span>
            {video.media.renditions.map((r) => (
              <Tag key={r.name}>
                {r.name} · {r.width}×{r.height}
              </Tag>
            ))}
          </Space>
        </>
      )}
      {problem && <Alert type="error" showIcon style={{ marginTop: 12 }} message={problem} />}
    </Modal>
  )
}
