import { isValidElement, type ReactElement } from 'react'
import { describe, expect, it } from 'vitest'
import { unbrokenNumbers } from './toast.ts'

type Span = ReactElement<{ style: { whiteSpace: string }; children: string }>

describe('toast: numbers are never broken over two lines', () => {
  it('wraps a masked phone number in a span that does not wrap; the words around it stay text', () => {
    const parts = unbrokenNumbers('验证码已发送至 152****7361') as unknown[]
    expect(parts).toHaveLength(2)
    expect(parts[0]).toBe('验证码已发送至 ')
    const span = parts[1] as Span
    expect(isValidElement(span)).toBe(true)
    expect(span.props).toMatchObject({ style: { whiteSpace: 'nowrap' }, children: '152****7361' })
  })

  it('keeps codes and amounts whole; a message without numbers is left as it is', () => {
    const parts = unbrokenNumbers('已退款 1,280.00 元，单号 ZX202611260001') as unknown[]
    expect((parts as Span[]).filter(isValidElement).map((p) => p.props.children)).toEqual(['1,280.00', '202611260001'])
    expect(unbrokenNumbers('请先登录')).toBe('请先登录')
  })
})
