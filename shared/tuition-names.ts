// System courses (issue 15): the names the learner screens and the console show for states and ID documents. No
// zod here: the contract page reads them, and the schemas in shared/api/tuition.ts would bring zod (26 KB gzip) into
// its first load.

/** A lead's states, as the console names them. */
export const leadStateNames = {
  new: '新线索',
  contacted: '已联系',
  offered: '已发报名',
  enrolled: '已报名',
  lost: '已流失',
} as const

/** The ID documents a contract may be signed with. */
export const idTypes = ['身份证', '护照', '港澳居民来往内地通行证', '台湾居民来往大陆通行证'] as const

/** An enrolment's states, as the console and the learner's order pages name them. */
export const enrolmentStateNames = {
  offered: '待签约',
  signed: '已签约',
  paying: '分期缴费中',
  enrolled: '已报名',
  paused: '休学中',
  overdue: '欠费暂停',
  exited: '已退学',
} as const
