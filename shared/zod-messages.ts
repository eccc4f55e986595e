import type { z } from 'zod'

// zod's own wording for a check without a message of its own ("数值过小：期望 number >=1"), written for people
// instead: what the field needs, not what the parser expected. A schema's own message ("价格至少 0.01 元") still
// wins; this only fills in where a schema gives none. Emptiness is the form's `required` rule's job, so the words
// for a missing value are plain.

/** 1000000 → "1,000,000", 0.01 → "0.01". */
const figure = (n: number | bigint) =>
  typeof n === 'bigint' ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 6 })

const formats: Record<string, string> = {
  url: '请填写以 http(s) 开头的完整网址',
  email: '邮箱格式不正确',
  datetime: '时间格式不正确',
  date: '日期格式不正确',
  time: '时间格式不正确',
}

type Issue = z.core.$ZodRawIssue

function tooSmall(issue: Extract<Issue, { code: 'too_small' }>) {
  const min = Number(issue.minimum)
  switch (issue.origin) {
    case 'string':
      return min <= 1 ? '不能为空' : `至少 ${figure(min)} 个字`
    case 'array':
    case 'set':
      return min <= 1 ? '至少选 1 项' : `至少选 ${figure(min)} 项`
    default:
      return issue.inclusive === false ? `须大于 ${figure(issue.minimum)}` : `不能小于 ${figure(issue.minimum)}`
  }
}

function tooBig(issue: Extract<Issue, { code: 'too_big' }>) {
  switch (issue.origin) {
    case 'string':
      return `最多 ${figure(issue.maximum)} 个字`
    case 'array':
    case 'set':
      return `最多 ${figure(issue.maximum)} 项`
    default:
      return issue.inclusive === false ? `须小于 ${figure(issue.maximum)}` : `不能大于 ${figure(issue.maximum)}`
  }
}

function invalidType(issue: Extract<Issue, { code: 'invalid_type' }>) {
  if (issue.input === undefined || issue.input === null || issue.input === '') return '请填写'
  if (issue.expected === 'int') return '须为整数'
  if (issue.expected === 'number') return '请填写数字'
  return '格式不正确'
}

/** A person's message for a zod issue whose schema gave none (the error map of `z.config`). */
export function plainIssueMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(issue)
    case 'too_small':
      return tooSmall(issue)
    case 'too_big':
      return tooBig(issue)
    case 'not_multiple_of':
      return `须为 ${figure(issue.divisor)} 的倍数`
    case 'invalid_value':
      return '请从选项中选择'
    case 'invalid_format':
      return formats[issue.format] ?? '格式不正确'
    default:
      return '格式不正确'
  }
}

/** `z.config(plainMessages)`: every check without its own message answers in `plainIssueMessage`'s words. */
export const plainMessages = { localeError: plainIssueMessage }
