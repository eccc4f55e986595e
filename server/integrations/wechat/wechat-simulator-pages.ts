import { htmlPage } from '#server/http/html-page.ts'

/** The WeChat simulator's two pages: the consent sheet of the user-info scope, and WeChat's error page. */

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const styles = `
*{box-sizing:border-box}
body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;background:#ededed;color:#191919;min-height:100vh;display:flex;flex-direction:column}
.top{flex:1;display:flex;align-items:center;justify-content:center;color:#7f7f7f;font-size:14px;padding:24px;text-align:center}
.sheet{background:#fff;border-radius:12px 12px 0 0;padding:24px 24px calc(24px + env(safe-area-inset-bottom));max-width:500px;width:100%;margin:0 auto}
.app{display:flex;align-items:center;gap:10px;font-size:16px;font-weight:500}
.logo{width:28px;height:28px;border-radius:6px;background:#07c160;color:#fff;display:flex;align-items:center;justify-content:center;font-size:16px}
h1{font-size:20px;font-weight:600;margin:20px 0 6px}
.hint{color:#7f7f7f;font-size:14px;margin:0 0 16px}
fieldset{border:0;padding:0;margin:0}
legend{font-size:13px;color:#7f7f7f;margin-bottom:6px}
label.user{display:flex;align-items:center;gap:12px;min-height:56px;border-bottom:1px solid #f0f0f0;cursor:pointer}
label.user img{width:40px;height:40px;border-radius:6px}
label.user span{flex:1;font-size:16px}
input[type=radio]{width:20px;height:20px;accent-color:#07c160}
input[type=text]{flex:1;font-size:16px;border:1px solid #dcdcdc;border-radius:6px;padding:10px;min-height:44px}
.buttons{display:flex;gap:16px;justify-content:center;margin-top:24px}
button{min-width:120px;min-height:44px;border:0;border-radius:8px;font-size:17px;font-weight:500;padding:0 20px}
.deny{background:#f2f2f2;color:#07c160}
.allow{background:#07c160;color:#fff}
.note{font-size:12px;color:#b2b2b2;text-align:center;margin-top:18px}
.error{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:32px;text-align:center;background:#fff}
.error .icon{width:64px;height:64px;border-radius:50%;background:#fa5151;color:#fff;font-size:40px;line-height:64px;margin-bottom:20px}
.error p{margin:4px 0;font-size:17px}
.error small{color:#7f7f7f;font-size:14px}
`

function page(title: string, body: string) {
  return htmlPage({ title, css: styles, body, cover: true })
}

export interface ConsentPageInput {
  /** The authorize request, carried through the form unchanged. */
  query: Record<string, string>
  users: { key: string; nickname: string; avatar: string }[]
  selectedKey: string
  appName: string
}

export function renderConsentPage(input: ConsentPageInput): string {
  const hidden = Object.entries(input.query)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('')
  const users = input.users
    .map(
      (u) =>
        `<label class="user"><img src="${escapeHtml(u.avatar)}" alt=""><span>${escapeHtml(u.nickname)}</span><input type="radio" name="user" value="${escapeHtml(u.key)}"${u.key === input.selectedKey ? ' checked' : ''}></label>`,
    )
    .join('')
  const selectedIsPreset = input.users.some((u) => u.key === input.selectedKey)
  const customValue = selectedIsPreset ? '' : input.selectedKey.replace(/^n:/, '')
  return page(
    '微信授权',
    `<div class="top">${escapeHtml(input.appName)} 请求微信授权</div>
<form class="sheet" method="post" action="authorize/confirm">${hidden}
<div class="app"><div class="logo">学</div>${escapeHtml(input.appName)} 申请</div>
<h1>获取你的昵称、头像</h1>
<p class="hint">选择一个测试微信身份（模拟器）</p>
<fieldset><legend>微信身份</legend>${users}
<label class="user"><input type="radio" name="user" value="custom"${selectedIsPreset ? '' : ' checked'} aria-label="其他昵称"><input type="text" name="nickname" maxlength="32" placeholder="或输入其他昵称" value="${escapeHtml(customValue)}" aria-label="昵称"></label>
</fieldset>
<div class="buttons"><button class="deny" type="submit" name="action" value="deny">拒绝</button><button class="allow" type="submit" name="action" value="allow">允许</button></div>
<p class="note">本地微信模拟器，仅用于开发和演示</p>
</form><script>document.querySelector('input[name=nickname]').addEventListener('focus', (e) => { e.target.previousElementSibling.checked = true })</script>`,
  )
}

export function renderErrorPage(code: number | null, message: string): string {
  return page(
    '微信授权',
    `<div class="error"><div class="icon">!</div><p>${escapeHtml(message)}</p>${code === null ? '' : `<small>错误码：${code}</small>`}</div>`,
  )
}
