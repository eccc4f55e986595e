import { Button, Result } from 'antd'
import { forgetToken } from '../lib/token.ts'

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
            <Button
              onClick={() => {
                forgetToken()
                window.location.assign('/admin/login')
              }}
            >
              换个账号登录
            </Button>
          ) : (
            <Button href="/admin">返回首页</Button>
          )
        }
      />
    </div>
  )
}
