import { fenToYuan } from '#shared/money.ts'

/** Beijing time of an ISO instant, `2026-11-25 14:03`. */
export function when(iso: string | null | undefined) {
  if (!iso) return '—'
  return new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false }).slice(0, -3)
}

export function yuan(fen: number) {
  return `¥${fenToYuan(fen)}`
}
