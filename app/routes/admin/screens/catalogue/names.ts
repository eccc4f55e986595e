// Chinese names the catalogue screens show (as the learner pages name the types: app/components/course-card, not
// imported here so no module is shared between the two bundles).

export const courseTypeNames: Record<string, string> = {
  series: '系列课',
  single: '单课',
  live: '直播',
  system: '系统班',
}

export const courseStatusNames: Record<string, string> = {
  draft: '草稿',
  published: '已上架',
  hidden: '已下架',
}

export const courseStatusColors: Record<string, string> = {
  draft: 'default',
  published: 'green',
  hidden: 'orange',
}

export const courseLevelNames: Record<string, string> = {
  beginner: '入门',
  intermediate: '进阶',
  advanced: '高级',
}

export const videoStateNames: Record<string, string> = {
  none: '未上传',
  uploaded: '已上传，待转码',
  transcoding: '转码中',
  ready: '可播放',
  failed: '转码失败',
}

export const homeSectionKindNames: Record<string, string> = {
  banner: '轮播图',
  shortcuts: '快捷入口',
  courses: '课程列表',
  grid: '课程双列',
  ranking: '课程排行',
}
