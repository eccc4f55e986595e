import { useCallback, useEffect, useRef, useState } from 'react'
import own from './tuition.module.css'

/**
 * A hand-drawn signature on a canvas (finger or mouse, pointer events): `onChange` gets the PNG data URL after
 * each stroke, or null when cleared. Strokes too short to be a signature (a tap) do not count.
 */
export function SignaturePad({ onChange }: { onChange: (png: string | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const drawing = useRef(false)
  const length = useRef(0)
  const [signed, setSigned] = useState(false)

  useEffect(() => {
    const c = canvas.current
    if (!c) return
    const ratio = window.devicePixelRatio || 1
    c.width = c.clientWidth * ratio
    c.height = c.clientHeight * ratio
    const ctx = c.getContext('2d')!
    ctx.scale(ratio, ratio)
    ctx.lineWidth = 2.5
    ctx.lineCap = 'round'
    ctx.lineJoin = 'round'
    ctx.strokeStyle = '#111'
  }, [])

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect()
    return { x: e.clientX - r.left, y: e.clientY - r.top }
  }
  const last = useRef({ x: 0, y: 0 })

  const down = (e: React.PointerEvent<HTMLCanvasElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId)
    drawing.current = true
    last.current = point(e)
  }
  const move = (e: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return
    const p = point(e)
    const ctx = e.currentTarget.getContext('2d')!
    ctx.beginPath()
    ctx.moveTo(last.current.x, last.current.y)
    ctx.lineTo(p.x, p.y)
    ctx.stroke()
    length.current += Math.hypot(p.x - last.current.x, p.y - last.current.y)
    last.current = p
  }
  const up = () => {
    if (!drawing.current) return
    drawing.current = false
    if (length.current > 40) {
      setSigned(true)
      onChange(canvas.current!.toDataURL('image/png'))
    }
  }
  const clear = useCallback(() => {
    const c = canvas.current!
    c.getContext('2d')!.clearRect(0, 0, c.width, c.height)
    length.current = 0
    setSigned(false)
    onChange(null)
  }, [onChange])

  return (
    <div>
      <canvas
        ref={canvas}
        className={own.pad}
        aria-label="手写签名区"
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <div className={own.padActions}>
        <span>{signed ? '已签名' : '请用手指在框内签写你的姓名'}</span>
        <button type="button" className={own.link} onClick={clear}>
          重写
        </button>
      </div>
    </div>
  )
}
