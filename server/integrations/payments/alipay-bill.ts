import { yuanToFen } from '#shared/money.ts'
import { parseAlipayTime } from './alipay-crypto.ts'
import type { BillPayment, BillRefund, ProviderBill } from './payments.ts'
import { billColumns } from './bill-columns.ts'
import { readZip } from './zip.ts'

/**
 * Alipay's trade bill (alipay.data.dataservice.bill.downloadurl.query, bill_type=trade): a ZIP of GBK CSV files,
 * "<pid>_<yyyyMMdd>_业务明细.csv" (one line per payment, 业务类型 交易, or refund, 业务类型 退款, between "#" comment
 * lines) and its summary "…业务明细(汇总).csv". Amounts in yuan (refunds negative); times Beijing.
 *
 * Not confirmed in Alipay's public documentation (taken from bills shown in integration guides): the exact file
 * names, that values may end in tabs (they are trimmed), and that a day without trades still has a bill.
 */

/** The detail file's columns in Alipay's order (the simulator writes them; the parser finds them by name). */
export const ALIPAY_BILL_COLUMNS = [
  '支付宝交易号',
  '商户订单号',
  '业务类型',
  '商品名称',
  '创建时间',
  '完成时间',
  '门店编号',
  '门店名称',
  '操作员',
  '终端号',
  '对方账户',
  '订单金额（元）',
  '商家实收（元）',
  '支付宝红包（元）',
  '集分宝（元）',
  '支付宝优惠（元）',
  '商家优惠（元）',
  '券核销金额（元）',
  '券名称',
  '商家红包消费金额（元）',
  '卡消费金额（元）',
  '退款批次号/请求号',
  '服务费（元）',
  '分润（元）',
  '备注',
] as const

/** A CSV line's fields (double quotes allowed around a field, "" inside one). */
function csvFields(line: string): string[] {
  const out: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (c === '"') quoted = false
      else cur += c
    } else if (c === '"' && cur === '') quoted = true
    else if (c === ',') {
      out.push(cur)
      cur = ''
    } else cur += c
  }
  out.push(cur)
  return out.map((f) => f.trim())
}

/** The detail file of a bill archive, decoded; throws an Error when the archive has none. */
export function alipayBillDetail(zip: Buffer): string {
  const detail = readZip(zip).find((e) => e.name.endsWith('业务明细.csv'))
  if (!detail) throw new Error('Alipay bill archive has no 业务明细.csv')
  return new TextDecoder('gbk').decode(detail.data)
}

/** The payments and refunds of a bill's detail file; throws an Error naming what is wrong with it. */
export function parseAlipayTradeBill(date: string, text: string): ProviderBill {
  const lines = text.split(/\r?\n/)
  const start = lines.findIndex((l) => l.startsWith(ALIPAY_BILL_COLUMNS[0]))
  if (start < 0) throw new Error('Alipay bill has no header line')
  const header = csvFields(lines[start]!)
  const at = billColumns(header, 'Alipay bill', {
    txn: '支付宝交易号',
    orderNo: '商户订单号',
    kind: '业务类型',
    done: '完成时间',
    amount: '订单金额（元）',
    requestNo: '退款批次号/请求号',
  })
  const payments: BillPayment[] = []
  const refunds: BillRefund[] = []
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break
    if (line.trim() === '') continue
    const f = csvFields(line)
    const raw = f[at.amount] ?? ''
    const fen = yuanToFen(raw.replace(/^-/, ''))
    if (fen === null) throw new Error(`Alipay bill line has a bad amount: ${raw}`)
    const base = { orderNo: f[at.orderNo] ?? '', at: parseAlipayTime(f[at.done]) }
    if (f[at.kind] === '交易') payments.push({ ...base, transactionId: f[at.txn] ?? '', amountFen: fen })
    else if (f[at.kind] === '退款')
      refunds.push({ ...base, refundNo: f[at.requestNo] || base.orderNo, amountFen: fen, succeeded: true })
  }
  return { date, payments, refunds }
}
