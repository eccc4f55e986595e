import { BarChart, LineChart, PieChart } from 'echarts/charts'
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts'
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import type {
  AriaComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components'
import { init, use as register, type ComposeOption } from 'echarts/core'
import { SVGRenderer } from 'echarts/renderers'
import { useEffect, useRef } from 'react'

// ECharts, only the parts the console draws (bar, line and pie charts with grid, tooltip, legend and the aria
// description, SVG rendering): this module is its own chunk, imported lazily by the screens that chart, so only they
// pay for it (docs/decisions/2026-11-26-console-charts.md).
register([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer])

export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | AriaComponentOption
>

/** One chart, sized to its box (it follows the box when the window or the menu changes its width). */
export default function Chart({
  option,
  height = 280,
  label,
}: {
  option: ChartOption
  height?: number
  label: string
}) {
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<ReturnType<typeof init> | null>(null)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const c = init(el, undefined, { renderer: 'svg' })
    chart.current = c
    const resize = new ResizeObserver(() => c.resize())
    resize.observe(el)
    return () => {
      resize.disconnect()
      c.dispose()
      chart.current = null
    }
  }, [])

  useEffect(() => {
    chart.current?.setOption({ aria: { enabled: true }, ...option }, true)
  }, [option])

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />
}
