// Words the scale seed composes titles, lessons, names and comments from. Each sub-category of the demo catalogue
// (server/db/seed-data.ts, by slug) has its own tools, subjects and projects, and some words recur across areas
// (调色 in Photoshop, 水彩 and 达芬奇; 透视 in 素描, 板绘 and 分镜), so a search word matches a realistic share of
// the catalogue rather than all of it or nothing.

export interface Topic {
  /** Software or medium names as people write them (several spellings and cases). */
  tools: string[]
  subjects: string[]
  /** Things a learner makes in a lesson or a course. */
  projects: string[]
}

export const topics: Record<string, Topic> = {
  photoshop: {
    tools: ['Photoshop', 'PS', 'Ps', 'photoshop', 'PS 2025'],
    subjects: [
      '修图',
      '抠图',
      '人像精修',
      '合成',
      '调色',
      '图层蒙版',
      '通道抠图',
      '光影',
      '滤镜',
      '商业修图',
      '证件照',
    ],
    projects: ['电商主图', '海报设计', '产品精修', '婚纱照后期', '创意合成海报', '朋友圈九宫格'],
  },
  illustrator: {
    tools: ['Illustrator', 'AI', 'Ai', 'illustrator'],
    subjects: ['矢量插画', '图标设计', '钢笔工具', '字体设计', '扁平插画', '渐变网格', '版式', '路径查找器'],
    projects: ['LOGO设计', '包装设计', '品牌VI', '信息图表', '插画海报'],
  },
  c4d: {
    tools: ['C4D', 'Cinema 4D', 'Blender', 'blender', 'Octane', '3ds Max'],
    subjects: ['建模', '渲染', '材质', '灯光', '动画', '粒子', '雕刻', '布料模拟', '骨骼绑定'],
    projects: ['电商场景', '产品建模', '角色建模', '低多边形场景', '三维字体', '国潮场景'],
  },
  cad: {
    tools: ['CAD', 'AutoCAD', 'autocad', '天正', 'SketchUp'],
    subjects: ['平面图', '施工图', '机械制图', '三维建模', '标注', '图层管理', '建筑制图', '快捷键', '打印出图'],
    projects: ['户型平面图', '零件图', '立面图', '水电图', '园林平面图'],
  },
  excel: {
    tools: ['Excel', 'excel', 'WPS表格', 'EXCEL'],
    subjects: ['函数', '数据透视表', 'VLOOKUP', '图表', '条件格式', '数据分析', 'Power Query', '宏与VBA', '数据清洗'],
    projects: ['财务报表', '动态看板', '销售分析表', '考勤表', '进销存表格', '工资条'],
  },
  word: {
    tools: ['Word', 'word', 'WPS文字'],
    subjects: ['排版', '长文档', '目录', '样式', '邮件合并', '表格', '页眉页脚', '批注修订', '域代码'],
    projects: ['毕业论文', '公文', '合同模板', '简历', '标书'],
  },
  ppt: {
    tools: ['PPT', 'ppt', 'PowerPoint', 'Keynote', 'WPS演示'],
    subjects: ['动画', '配色', '版式设计', '图表美化', '演讲', '模板', '字体搭配', '图片处理'],
    projects: ['工作汇报', '年终总结', '毕业答辩', '商业计划书', '发布会PPT'],
  },
  'digital-painting': {
    tools: ['Procreate', 'procreate', '板绘', 'SAI', 'CSP', 'iPad'],
    subjects: ['厚涂', '线稿', '上色', '光影', '人物', '场景', '透视', '配色', '笔刷', '质感'],
    projects: ['Q版头像', '古风插画', '厚涂头像', '商稿插画', '游戏原画', '绘本'],
  },
  watercolor: {
    tools: ['水彩', '彩铅', '水粉', '马克笔'],
    subjects: ['花卉', '风景', '静物', '动物', '叠色', '湿画法', '干画法', '写生', '调色', '留白'],
    projects: ['植物手账', '城市速写', '四季花卉', '萌宠画像', '节日贺卡'],
  },
  sketch: {
    tools: ['素描', '速写', '铅笔画', '手绘'],
    subjects: ['透视', '结构', '几何体', '石膏像', '人物头像', '光影', '明暗', '线条', '人体'],
    projects: ['静物组合', '人物速写', '风景速写', '建筑手绘', '肖像'],
  },
  manga: {
    tools: ['日系漫画', '动漫', '漫画', '二次元'],
    subjects: ['人物', '头发', '表情', '服装', '线稿', '赛璐璐上色', '动态', '构图', '手部'],
    projects: ['Q版人物', '少女漫角色', '同人图', '角色设定', '漫画封面'],
  },
  webtoon: {
    tools: ['条漫', '网漫', 'Webtoon', 'webtoon'],
    subjects: ['分镜', '剧本', '上色', '排版', '连载', '角色设计', '对话框', '节奏', '3D辅助'],
    projects: ['短篇条漫', '投稿作品', '连载第一话', '恋爱条漫'],
  },
  storyboard: {
    tools: ['分镜', '动画分镜', '影视分镜', '故事板'],
    subjects: ['镜头语言', '构图', '透视', '运镜', '叙事', '动态', '场景设计', '转场'],
    projects: ['广告分镜', '动画短片分镜', 'MV分镜', '微电影分镜'],
  },
  jianying: {
    tools: ['剪映', 'CapCut', 'capcut', '剪映专业版', '手机剪辑'],
    subjects: ['短视频', '卡点', '字幕', '转场', '调色', '口播', '特效', '配音', '剪辑', '关键帧'],
    projects: ['vlog', '抖音视频', '带货视频', '旅行短片', '美食视频', '知识口播'],
  },
  premiere: {
    tools: ['Premiere', 'PR', 'Pr', 'premiere'],
    subjects: ['剪辑', '调色', '字幕', '转场', '多机位', '音频处理', '关键帧', '剪辑思维', '嵌套序列'],
    projects: ['宣传片', 'Vlog', '婚礼视频', '纪录短片', '企业宣传片'],
  },
  davinci: {
    tools: ['达芬奇', 'DaVinci Resolve', 'davinci', '达芬奇调色'],
    subjects: ['调色', '一级校色', '二级调色', 'LUT', '节点', '肤色', '风格化', 'HDR', 'Fusion'],
    projects: ['电影感画面', '日系清新调色', '赛博朋克风格', '广告调色', '婚礼短片'],
  },
  'after-effects': {
    tools: ['AE', 'After Effects', 'Ae', 'ae'],
    subjects: ['特效', 'MG动画', '跟踪', '粒子', '表达式', '抠像', '文字动画', '合成', '三维图层'],
    projects: ['片头', '综艺花字', '产品动画', 'UI动效', '科技感片头'],
  },
  graphic: {
    tools: ['平面设计', 'PS+AI', 'CorelDRAW', 'InDesign'],
    subjects: ['版式', '配色', '字体设计', '排版', '网格系统', '图形创意', '印刷工艺'],
    projects: ['海报', '包装', '品牌VI', 'LOGO', '画册', '电商设计'],
  },
  ui: {
    tools: ['UI', 'Figma', 'figma', 'Sketch', '即时设计', 'Axure'],
    subjects: ['设计规范', '图标', '交互', '组件库', '动效', '原型', '用户体验', '栅格', '设计系统'],
    projects: ['App界面', '作品集', 'B端后台', '网页设计', '小程序界面', '数据可视化大屏'],
  },
  interior: {
    tools: ['室内设计', 'SketchUp', '3ds Max', '酷家乐', 'VRay'],
    subjects: ['效果图', '软装', '户型改造', '施工图', '灯光', '材质', '渲染', '收纳', '配色'],
    projects: ['小户型', '全屋定制', '客厅设计', '民宿设计', '办公空间'],
  },
}

export const levels = ['零基础', '入门', '新手', '进阶', '高级', '精通', '小白']
export const formats = [
  '系统课',
  '实战课',
  '训练营',
  '精讲',
  '速成班',
  '大师课',
  '全套教程',
  '案例课',
  '特训营',
  '公开课',
]
export const hooks = ['从入门到精通', '一课学会', '必备技巧', '案例实战', '核心技法', '全流程', '100例', '保姆级教程']
export const years = ['2024版', '2025版', '2026版', '最新版']
export const audiences = [
  '职场人',
  '大学生',
  '设计师',
  '宝妈',
  '上班族',
  '自由职业者',
  '新媒体运营',
  '退休人士',
  '小学生',
]
export const dayCounts = [3, 7, 14, 21, 30, 60, 100]

export const lessonAspects = [
  '基本原理',
  '常用工具',
  '操作步骤',
  '实例演示',
  '常见问题',
  '进阶技巧',
  '练习与点评',
  '快捷键',
  '思路拆解',
  '案例精讲',
  '易错点',
  '参数详解',
]
export const chapterTails = ['基础', '入门', '进阶', '技巧', '实战', '精讲', '综合练习']

export const surnames = [
  ...'王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎易常武乔贺赖龚文',
]
export const givenNames = [
  ...'晓墨木野清静明华婷磊洋艳勇军杰娟涛超敏霞平刚宁帆岚琳悦然安宇航欣怡瑶琪睿哲轩涵萱诺辰逸阳晨雪梅兰竹菊',
  '一帆',
  '小满',
  '子涵',
  '浩然',
  '雨萱',
  '思远',
  '子轩',
  '梓萱',
  '欣怡',
  '若曦',
  '嘉怡',
  '语桐',
  '梦瑶',
  '书航',
  '星辰',
]
export const teacherTitles = ['认证讲师', '资深讲师', '高级讲师', '金牌讲师', '特邀讲师', '首席讲师']
export const teacherRoles = ['设计师', '插画师', '剪辑师', '分析师', '美术指导', '教研负责人', '自由创作者']

export const nicknameHeads = ['快乐的', '安静的', '努力的', '爱画画的', '会剪辑的', '早起的', '熬夜的', '认真的', '']
export const nicknameTails = [
  '小猫',
  '橙子',
  '设计狮',
  '兔子',
  '鲸鱼',
  '小鱼',
  '团子',
  '画画人',
  '剪刀手',
  '学员',
  '表哥',
  '打工人',
  '同学',
  '咸鱼',
  '柠檬',
]

export const commentLines = [
  '老师讲得很清楚，终于听懂了',
  '跟着做了一遍，效果出来了！',
  '请问练习素材在哪里下载？',
  '这个快捷键太好用了',
  '这一节有点快，能再讲慢一点吗',
  '干货满满，收藏了',
  '已经用在工作里了，老板夸了',
  '求出进阶课',
  '声音有点小，其他都很好',
  '讲得很细，零基础也能跟上',
  '作业交了，求老师点评',
  '第二遍看才明白其中的思路',
  '为什么我做出来的颜色不一样？',
  '打卡，坚持学习',
  '比在别的平台买的课好多了',
]
