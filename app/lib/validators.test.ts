import { describe, expect, it } from 'vitest'
import {
  CODE_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  checkCode,
  checkNickname,
  checkPhone,
  fieldForLoginCode,
  isDate,
  isDigits,
  isEmail,
  isIdCard,
  isInRange,
  isLandline,
  isLength,
  isNumber,
  isPhone,
  isUrl,
  limitLength,
  digitsOnly,
} from './validators.ts'

describe('login field rules (spec 5)', () => {
  it.each([
    ['', '', '请输入手机号'],
    ['   ', '', '请输入手机号'],
    ['138', '138', '手机号格式错误'],
    ['12800138000', '12800138000', '手机号格式错误'],
    ['23800138000', '23800138000', '手机号格式错误'],
    ['1380013800a', '1380013800a', '手机号格式错误'],
    ['138001380000', '138001380000', '手机号格式错误'],
    ['13800138000', '13800138000', null],
    [' 19912345678 ', '19912345678', null],
    ['15000000000', '15000000000', null],
  ])('phone %j → %j, %s', (raw, value, error) => {
    expect(checkPhone(raw)).toEqual({ value, error })
  })

  it.each([
    ['', '', '请输入验证码'],
    ['  ', '', '请输入验证码'],
    [' 1234 ', '1234', null],
  ])('code %j → %j, %s', (raw, value, error) => {
    expect(checkCode(raw)).toEqual({ value, error })
  })

  it('caps the inputs at 11 and 4 characters', () => {
    expect(PHONE_MAX_LENGTH).toBe(11)
    expect(CODE_MAX_LENGTH).toBe(4)
    expect(limitLength('138001380001234', PHONE_MAX_LENGTH)).toBe('13800138000')
    expect(limitLength('123456', CODE_MAX_LENGTH)).toBe('1234')
  })

  it.each([
    [401, 'phone'],
    [402, 'phone'],
    [405, 'code'],
    [406, 'code'],
    [430, null],
    [500, null],
  ])('a %i answer marks the %s input', (code, field) => {
    expect(fieldForLoginCode(code)).toBe(field)
  })
})

describe('nickname', () => {
  it.each([
    ['', '请输入昵称'],
    ['   ', '请输入昵称'],
    ['小明', null],
    ['一二三四五六七八九十一二三四五六七八九十', null],
    ['一二三四五六七八九十一二三四五六七八九十一', '昵称最多 20 个字'],
  ])('%j → %s', (raw, error) => {
    expect(checkNickname(raw).error).toBe(error)
  })
})

describe('generic validators', () => {
  it.each([
    [isEmail, 'a@b.cn', true],
    [isEmail, 'a@b', false],
    [isPhone, '13800138000', true],
    [isPhone, '12800138000', false],
    [isLandline, '010-12345678', true],
    [isLandline, '0755-1234567-89', true],
    [isLandline, '12345', false],
    [isUrl, 'https://zixue.example/a', true],
    [isUrl, 'javascript:alert(1)', false],
    [isDate, '2024-02-29', true],
    [isDate, '2023-02-29', false],
    [isDate, '2024/12/01', true],
    [isNumber, '-3.5', true],
    [isNumber, '3.', false],
    [isDigits, '0123', true],
    [isDigits, '12a', false],
    [isIdCard, '11010519491231002X', true],
    [isIdCard, '110105194912310021', false],
    [isIdCard, '11010519491331002X', false],
  ] as const)('%o(%j) → %s', (fn, value, ok) => {
    expect(fn(value)).toBe(ok)
  })

  it('measures length in characters and checks ranges', () => {
    expect(isLength('自学课程', 1, 4)).toBe(true)
    expect(isLength('自学课程平台', 1, 4)).toBe(false)
    expect(isInRange('5', 1, 10)).toBe(true)
    expect(isInRange('', 0, 10)).toBe(false)
    expect(isInRange(11, 1, 10)).toBe(false)
  })
})

describe('digitsOnly (the phone and code fields)', () => {
  it.each([
    ['13800138000', '13800138000'],
    ['138 0013 8000', '13800138000'],
    ['138-0013-8000', '13800138000'],
    ['+86 138 0013 8000', '13800138000'],
    ['0086 13800138000', '13800138000'],
    ['abc1x2', '12'],
    ['８６', ''],
  ])('%s → %s', (raw, kept) => {
    expect(digitsOnly(raw)).toBe(kept)
  })
})
