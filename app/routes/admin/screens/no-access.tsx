import { Button, Result } from 'antd'
import { api } from '../lib/client.ts'
import { forgetToken } from '../lib/token.ts'

/** Ends this session on the server (and with it the pages' session cookie), then signs in afresh. */
async function switchAccount() {
  await api.post('/logout').catch(() => api.delete('/session/cookie').catch(() => undefined))
  forgetToken()
  window.location.assign('/admin/login')
}

/** A signed-in member without a staff role, or a screen their roles do not open. */
export default function NoAccess({ signedIn = true, what }: { signedIn?: boolean; what?: string }) {
  return (
    <div className="zx-console-center">
      <Result
        status="403"
        title="无权限"
        subTitle={
          what
            ? `你的角色不能打开「${what}」。如需开通，请联系管理员在「员工与角色」中授权。`
            : '当前账号没有后台角色。如需开通，请联系管理员在「员工与角色」中授权后重新登录。'
        }
        extra={
          signedIn && !what ? (
            <Button onClick={() => void switchAccount()}>换个账号登录</Button>
          ) : (
            <Button href="/admin">返回首页</Button>
          )
        }
      />
    </div>
  )
}
