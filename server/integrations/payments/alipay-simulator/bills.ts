import crypto from 'node:crypto'
import { fenToYuan } from '#shared/money.ts'
import { beijingDate, beijingDateTime } from '#shared/time.ts'
import { ALIPAY_BILL_COLUMNS } from '../alipay-bill.ts'
import { writeZip } from '../zip.ts'
import { encodeGbk } from './gbk.ts'
import type { AlipaySimTrade } from './trade.ts'

// The trade bills of the simulated gateway (alipay.data.dataservice.bill.downloadurl.query): made from the trades
// and refunds it holds, as Alipay's own are (see ../alipay-bill.ts for the format and what is not confirmed).

interface BillOptions {
  trades: Map<string, AlipaySimTrade>
  sellerId: string
  /** Where the simulator's routes are reached (the download address). */
  publicBase: () => string
  now: () => Date
}

const DOWNLOAD_TTL_MS = 30_000

/** The detail file of day `date`: the trades paid and the refunds made that day (Beijing). */
function detailCsv(o: BillOptions, date: string) {
  const lines: string[][] = []
  const row = (t: AlipaySimTrade, kind: '交易' | '退款', at: Date, amount: string, requestNo: string) => {
    const cells: string[] = ALIPAY_BILL_COLUMNS.map(() => '')
    const set = (name: (typeof ALIPAY_BILL_COLUMNS)[number], v: string) => {
      cells[ALIPAY_BILL_COLUMNS.indexOf(name)] = v
    }
    set('支付宝交易号', `${t.tradeNo}\t`)
    set('商户订单号', `${t.outTradeNo}\t`)
    set('业务类型', kind)
    set('商品名称', `"${t.subject.replaceAll('"', '""')}"`)
    set('创建时间', beijingDateTime(t.gmtPayment ?? at))
    set('完成时间', beijingDateTime(at))
    set('对方账户', '159****5620')
    set('订单金额（元）', amount)
    set('商家实收（元）', amount)
    set('退款批次号/请求号', requestNo)
    lines.push(cells)
  }
  for (const t of o.trades.values()) {
    if (t.gmtPayment && beijingDate(t.gmtPayment) === date) row(t, '交易', t.gmtPayment, fenToYuan(t.total), '')
    for (const [requestNo, r] of t.refunds)
      if (r.done && beijingDate(r.at) === date) row(t, '退款', r.at, `-${fenToYuan(r.amount)}`, requestNo)
  }
  const rule = '#-----------------------------------------'
  return [
    '#支付宝业务明细查询',
    `#账号：[${o.sellerId}0156]`,
    `#起始日期：[${date} 00:00:00]   终止日期：[${date} 23:59:59]`,
    `${rule}业务明细列表----------------------------------------`,
    ALIPAY_BILL_COLUMNS.join(','),
    ...lines.map((cells) => cells.join(',')),
    `${rule}业务明细列表结束------------------------------------`,
    `#导出时间：[${beijingDateTime(o.now())}]`,
    '',
  ].join('\r\n')
}

/** The bill answers of the simulated gateway: the download address (an API method) and the file behind it. */
export function createAlipayBills(o: BillOptions) {
  const files = new Map<string, { zip: Buffer; expires: number }>()
  return {
    /** The content of the downloadurl.query answer for biz_content `b`. */
    downloadUrl(b: Record<string, unknown> | null): Record<string, unknown> {
      const date = typeof b?.bill_date === 'string' ? b.bill_date : ''
      if (b?.bill_type !== 'trade' || !/^\d{4}-\d\d-\d\d$/.test(date))
        return { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter', sub_msg: '参数无效' }
      // Only days that have ended have a bill (Alipay makes it the next morning).
      if (date >= beijingDate(o.now()))
        return { code: '40004', msg: 'Business Failed', sub_code: 'isp.bill_not_exist', sub_msg: '账单不存在' }
      const compact = date.replaceAll('-', '')
      const detail = encodeGbk(detailCsv(o, date))
      const zip = writeZip(
        [
          { name: `${o.sellerId}0156_${compact}_业务明细.csv`, data: detail },
          { name: `${o.sellerId}0156_${compact}_业务明细(汇总).csv`, data: encodeGbk('#支付宝业务汇总查询\r\n') },
        ],
        encodeGbk,
      )
      const token = crypto.randomBytes(12).toString('hex')
      const now = o.now().getTime()
      for (const [k, f] of files) if (f.expires < now) files.delete(k)
      files.set(token, { zip, expires: now + DOWNLOAD_TTL_MS })
      return {
        code: '10000',
        msg: 'Success',
        bill_download_url: `${o.publicBase()}/bill/download?token=${token}&bizDates=${compact}`,
      }
    },
    /** The archive behind a download address, while it is valid. */
    file(token: string): Buffer | null {
      const f = files.get(token)
      return f && f.expires >= o.now().getTime() ? f.zip : null
    },
  }
}
