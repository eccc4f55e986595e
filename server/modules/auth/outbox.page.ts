import type { FastifyInstance } from 'fastify'
import type { AuthService } from './auth.service.ts'
import { escapeHtml } from '#server/http/escape-html.ts'
import { htmlPage } from '#server/http/html-page.ts'
import { beijingDateTime } from '#shared/time.ts'

const purposeLabel = {
  login: '登录',
  bind: '绑定手机',
  step_up: '后台操作验证',
  account: '导出或注销账号',
  contract: '签署合同',
} as const

/** "11-25 17:03:22" in Beijing: the day and time a code went out. */
const sentAt = (at: Date) => beijingDateTime(at).slice(5)

/**
 * GET /__dev/outbox: the SMS codes the console provider "sent", for developers and the demo. Registered only when
 * config.devOutbox is on, which the configuration never allows in production.
 */
export async function outboxPage(app: FastifyInstance, opts: { auth: Pick<AuthService, 'outbox'> }) {
  app.get('/__dev/outbox', { schema: { hide: true } }, async (_request, reply) => {
    const rows = opts.auth
      .outbox()
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.phone)}</td><td class="code">${escapeHtml(m.code)}</td><td>${purposeLabel[m.purpose]}</td><td>${sentAt(m.sentAt)}</td></tr>`,
      )
      .join('')
    const html = htmlPage({
      title: '短信验证码（开发用）',
      css: `
body{font:16px/1.5 system-ui,-apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;margin:0 auto;padding:16px;max-width:500px;color:#222}
h1{font-size:20px;margin:0 0 4px}p{color:#666;margin:0 0 16px;font-size:14px}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:10px 6px;border-bottom:1px solid #eee;font-size:15px}
th{color:#888;font-weight:normal;font-size:13px}.code{font:600 20px/1 ui-monospace,monospace;letter-spacing:2px;color:#e4393c}
a{display:inline-block;padding:10px 0;min-height:24px}
`,
      body: `
<h1>短信验证码</h1>
<p>开发和演示环境不真的发短信，最近 50 条验证码显示在这里。生产环境没有这个页面。</p>
${rows ? `<table><thead><tr><th>手机号</th><th>验证码</th><th>用途</th><th>时间</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>还没有发送过验证码。</p>'}
<a href="/__dev/outbox">刷新</a>
`,
    })
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html)
  })
}
