import crypto from 'node:crypto'

/**
 * The JS-SDK `wx.config` signature (WeChat JS-SDK documentation, appendix 1): SHA-1 of the four fields in this
 * fixed order, the page address without its `#fragment`.
 */
export function jsSdkSignature(input: { ticket: string; nonceStr: string; timestamp: number; url: string }): string {
  const url = input.url.split('#')[0]!
  const plain = `jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timestamp}&url=${url}`
  return crypto.createHash('sha1').update(plain).digest('hex')
}
