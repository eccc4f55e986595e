import { describe, expect, it } from 'vitest'
import { groupJoinHint } from './group-join.ts'

describe('/course/systemGroup follows the enrolment (GET /course/bs), not only purchases', () => {
  it.each([
    ['enrolled', false, /发送“入群”，班主任会拉你/],
    ['paying', false, /发送“入群”，班主任会拉你/],
    ['paused', true, /正在休学/],
    ['overdue', true, /学费已逾期/],
    ['exited', true, /已退学/],
    ['offered', false, /缴纳首笔学费后/],
    ['none', false, /报名本班后/],
    ['none', true, /发送“入群”，班主任会拉你/],
  ] as const)('%s (bought: %s)', (status, bought, hint) => {
    expect(groupJoinHint(status, bought, true)).toMatch(hint)
  })
})
