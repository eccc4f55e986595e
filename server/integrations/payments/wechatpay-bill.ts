import crypto from 'node:crypto'
import { z } from 'zod'
import { yuanToFen } from '#shared/money.ts'
import { parseAlipayTime } from './alipay-crypto.ts'
import { billColumns } from './bill-columns.ts'
import { ProviderError, type BillPayment, type BillRefund, type ProviderBill } from './payments.ts'

/**
 * WeChat Pay's trade bill file (GET /v3/bill/tradebill, bill_type=ALL, then the download), as documented: a
 * header line, one line per payment (交易状态 SUCCESS) or refund (交易状态 REFUND), each field prefixed with a
 * backtick, then two summary lines (总交易单数,…). Columns are found by their names (WeChat says their order may
 * change). Amounts in yuan. Times are Beijing time, "yyyy-MM-dd HH:mm:ss".
 *
 * Not confirmed in WeChat Pay's documentation (taken from the v2 bill it says the v3 file keeps): whether a
 * refund line's 交易时间 is the refund's time (the simulator writes it so), and the download's content type.
 */

/** The columns of an ALL bill in WeChat's order (the simulator writes them; the parser finds them by name). */
export const WECHAT_BILL_COLUMNS = [
  '交易时间',
  '公众账号ID',
  '商户号',
  '特约商户号',
  '设备号',
  '微信订单号',
  '商户订单号',
  '用户标识',
  '交易类型',
  '交易状态',
  '付款银行',
  '货币种类',
  '应结订单金额',
  '代金券金额',
  '微信退款单号',
  '商户退款单号',
  '退款金额',
  '充值券退款金额',
  '退款类型',
  '退款状态',
  '商品名称',
  '商户数据包',
  '手续费',
  '费率',
  '订单金额',
  '申请退款金额',
  '费率备注',
] as const

export const WECHAT_BILL_SUMMARY = [
  '总交易单数',
  '应结订单总金额',
  '退款总金额',
  '充值券退款总金额',
  '手续费总金额',
  '订单总金额',
  '申请退款总金额',
] as const

/** One line's fields: every field starts with "`", so ",`" separates them even when a name holds a comma. */
function fields(line: string) {
  return line.replace(/^`/, '').split(',`')
}

/** The payments and refunds of a bill file; throws an Error naming what is wrong with it. */
export function parseWechatTradeBill(date: string, text: string): ProviderBill {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
  const header = lines[0]?.split(',').map((h) => h.trim()) ?? []
  const at = billColumns(header, 'WeChat Pay bill', {
    time: '交易时间',
    txn: '微信订单号',
    orderNo: '商户订单号',
    state: '交易状态',
    refundNo: '商户退款单号',
    refundState: '退款状态',
    refunded: '退款金额',
    total: ['订单金额', '应结订单金额'],
    asked: ['申请退款金额', '退款金额'],
  })
  const payments: BillPayment[] = []
  const refunds: BillRefund[] = []
  for (const line of lines.slice(1)) {
    if (line.startsWith(WECHAT_BILL_SUMMARY[0])) break
    const f = fields(line)
    const amount = (i: number) => {
      const fen = yuanToFen(f[i]?.trim())
      if (fen === null) throw new Error(`WeChat Pay bill line has a bad amount: ${f[i]}`)
      return fen
    }
    const state = f[at.state]?.trim()
    const base = { orderNo: f[at.orderNo]?.trim() ?? '', at: parseAlipayTime(f[at.time]?.trim()) }
    if (state === 'SUCCESS')
      payments.push({ ...base, transactionId: f[at.txn]?.trim() ?? '', amountFen: amount(at.total) })
    else if (state === 'REFUND')
      refunds.push({
        ...base,
        refundNo: f[at.refundNo]?.trim() ?? '',
        amountFen: amount(at.asked),
        succeeded: f[at.refundState]?.trim() === 'SUCCESS',
      })
  }
  return { date, payments, refunds }
}

const billAnswer = z.object({ hash_type: z.string(), hash_value: z.string(), download_url: z.url() })

/** How the adapter reaches WeChat Pay for a bill: a verified API call, and a signed download (whose answer is not). */
interface BillTransport {
  /** GET of an API path under the base; throws ProviderError (with WeChat's code) unless the answer verified. */
  call(path: string): Promise<{ status: number; json: unknown }>
  download(url: string): Promise<{ status: number; bytes: Buffer }>
}

/**
 * The trade bill of `date`: GET /v3/bill/tradebill (a verified answer with the file's hash and address), then the
 * download, signed like any request. WeChat Pay does not sign the download's answer; the SHA1 hash from the
 * verified answer is what makes the file trusted. A day without trades (NO_STATEMENT_EXIST) is an empty bill.
 */
export async function fetchWechatTradeBill(date: string, transport: BillTransport): Promise<ProviderBill> {
  let json: unknown
  try {
    json = (await transport.call(`/v3/bill/tradebill?bill_date=${date}&bill_type=ALL`)).json
  } catch (err) {
    if (err instanceof ProviderError && err.code === 'NO_STATEMENT_EXIST') return { date, payments: [], refunds: [] }
    throw err
  }
  const answer = billAnswer.safeParse(json)
  if (!answer.success) throw new ProviderError(null, `unexpected WeChat Pay answer to the trade bill of ${date}`)
  if (answer.data.hash_type.toUpperCase() !== 'SHA1')
    throw new ProviderError(null, `WeChat Pay bill hash ${answer.data.hash_type} is not supported`)
  const file = await transport.download(answer.data.download_url)
  if (file.status !== 200)
    throw new ProviderError(null, `HTTP ${file.status} downloading the WeChat Pay bill of ${date}`)
  const hash = crypto.createHash('sha1').update(file.bytes).digest('hex')
  if (hash !== answer.data.hash_value.toLowerCase())
    throw new ProviderError('SIGN_ERROR', `WeChat Pay bill of ${date} does not match its SHA1 hash`)
  try {
    return parseWechatTradeBill(date, file.bytes.toString('utf8'))
  } catch (err) {
    throw new ProviderError(null, `WeChat Pay bill of ${date}: ${err instanceof Error ? err.message : 'unreadable'}`)
  }
}
