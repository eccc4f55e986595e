import type { z } from 'zod'
import type { StatusResponse } from '#server/modules/tuition/tuition.schema.ts'

type Enrolment = z.infer<typeof StatusResponse>['data']['status']

/**
 * /course/systemGroup: how the member joins the study group, by their enrolment in the programme (GET /course/bs)
 * rather than by purchases alone: enrolled or paying may join; paused, overdue and exited are told why not now.
 * `bought`: the system course bought outright (a purchase, no enrolment).
 */
export function groupJoinHint(status: Enrolment | null, bought: boolean, signedIn: boolean) {
  const join = '添加班主任企业微信，发送“入群”，班主任会拉你进本班学习群。'
  if (!signedIn) return join
  switch (status) {
    case 'enrolled':
    case 'paying':
      return join
    case 'paused':
      return '你正在休学，复学后即可回到本班学习群继续学习。'
    case 'overdue':
      return '学费已逾期，缴清后即可回到本班学习群。'
    case 'exited':
      return '你已退学，不再在本班学习群中。如需重新报名请联系课程顾问。'
    case 'offered':
    case 'signed':
      return '缴纳首笔学费后添加班主任企业微信，发送“入群”即可加入。'
    default:
      return bought ? join : '报名本班后添加班主任企业微信，发送“入群”即可加入。'
  }
}
