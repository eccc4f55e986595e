import { describe, expect, it } from 'vitest'
import { maskPhone, normalizePhone } from './members.service.ts'

describe('normalizePhone', () => {
  it.each([
    ['13800138000', '13800138000'],
    [' 19912345678 ', '19912345678'],
    ['\t15000000000\n', '15000000000'],
  ])('accepts %j as %s', (raw, phone) => expect(normalizePhone(raw)).toBe(phone))

  it.each([
    '',
    '1380013800',
    '138001380001',
    '12800138000',
    '23800138000',
    '1380013800O',
    '+8613800138000',
    '138-0013-8000',
    '１３８００１３８０００',
  ])('refuses %j with 401', (raw) =>
    expect(() => normalizePhone(raw)).toThrow(
      expect.objectContaining({ entry: expect.objectContaining({ code: 401 }) as unknown }) as Error,
    ),
  )
})

describe('maskPhone', () => {
  it('keeps the first 3 and last 4 digits', () => expect(maskPhone('13800138000')).toBe('138****8000'))
  it('hides a short value entirely', () => expect(maskPhone('123')).toBe('****'))
})
