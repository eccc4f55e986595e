/**
 * The one table of response codes (body `code`). 200 is success; 301 and 504 make the client log in again
 * (spec section 8). Business failures answer HTTP 200 with their own code; the protocol-level ones also use the
 * HTTP status given here. The OpenAPI document lists this table.
 */
export const Codes = {
  Ok: { code: 200, status: 200, msg: 'ok' },
  NotLoggedIn: { code: 301, status: 200, msg: '请先登录' },
  SessionExpired: { code: 504, status: 200, msg: '登录已过期，请重新登录' },
  BadRequest: { code: 400, status: 400, msg: '请求参数错误' },
  PhoneInvalid: { code: 401, status: 200, msg: '手机号格式错误' },
  PhoneNotAllowed: { code: 402, status: 200, msg: '该手机号没有购买记录，请使用购买课程时用的手机号' },
  Forbidden: { code: 403, status: 403, msg: '没有权限' },
  NotFound: { code: 404, status: 404, msg: '内容不存在' },
  CodeWrong: { code: 405, status: 200, msg: '验证码错误' },
  CodeExpired: { code: 406, status: 200, msg: '验证码已失效，请重新获取' },
  Conflict: { code: 409, status: 200, msg: '操作冲突，请刷新后重试' },
  PayloadTooLarge: { code: 413, status: 413, msg: '提交的内容过大' },
  UnsupportedMedia: { code: 415, status: 415, msg: '不支持的文件类型' },
  TooManyRequests: { code: 429, status: 429, msg: '操作太频繁，请稍后再试' },
  SmsTooFrequent: { code: 430, status: 200, msg: '验证码发送太频繁，请稍后再试' },
  LoginLocked: { code: 431, status: 200, msg: '今日验证码登录失败次数过多，请明天再试或使用微信登录' },
  SmsFailed: { code: 432, status: 200, msg: '短信发送失败，请稍后重试' },
  PhoneTaken: { code: 433, status: 200, msg: '该手机号已绑定其他账号' },
  WechatOnly: { code: 440, status: 200, msg: '请在微信内点击' },
  WechatCodeInvalid: { code: 441, status: 200, msg: '微信授权已失效，请重新授权' },
  WechatFailed: { code: 442, status: 200, msg: '微信服务暂时不可用，请稍后重试' },
  OauthStateInvalid: { code: 443, status: 200, msg: '授权请求已失效，请重新发起' },
  WechatTaken: { code: 444, status: 200, msg: '该微信已绑定其他账号' },
  WechatAlreadyBound: { code: 445, status: 200, msg: '当前账号已绑定其他微信' },
  ImageInvalid: { code: 450, status: 200, msg: '图片无法识别，请上传 JPG、PNG 或 WebP 图片' },
  ImageTooLarge: { code: 451, status: 200, msg: '图片不能超过 5 MB 或 2500 万像素' },
  NicknameInvalid: { code: 460, status: 200, msg: '昵称需为 1–20 个字，且不能包含控制字符' },
  AvatarInvalid: { code: 461, status: 200, msg: '头像须是你上传的图片，请重新上传' },
  VideoInvalid: { code: 470, status: 200, msg: '视频文件无法识别，请上传 MP4、MOV、WebM、MKV、AVI、TS 或 FLV 格式的视频' },
  VideoTooLarge: { code: 471, status: 200, msg: '视频文件太大' },
  VideoBusy: { code: 472, status: 200, msg: '视频正在转码，请稍后再试' },
  VideoNotReady: { code: 473, status: 200, msg: '视频还在处理中，请稍后再来观看' },
  NoWatchAccess: { code: 474, status: 200, msg: '购买课程后即可观看' },
  InternalError: { code: 500, status: 500, msg: '服务器开小差了，请稍后再试' },
  Unavailable: { code: 503, status: 503, msg: '服务暂时不可用，请稍后再试' },
} as const

export type CodeName = keyof typeof Codes
export type CodeEntry = (typeof Codes)[CodeName]
