import { useState } from 'react'
import { api } from '#app/lib/api.ts'
import { authStore, type UserInfo } from '#app/lib/auth-store.ts'
import { currentPlatform } from '#app/lib/platform.ts'
import { toast } from '#app/lib/toast.ts'
import { PhoneCodeFields, phoneCodeFormClass, usePhoneCode } from '#app/components/phone-code/phone-code-fields.tsx'
import styles from './bind-phone-form.module.css'
import { sendStat } from '#app/lib/stat.ts'

type BindAnswer = UserInfo & { merged: boolean; token?: string; expire_in?: number }

const MERGE_NOTICE =
  '该手机号已有自学账号。验证后，两个账号将合并为一个：已购课程、订单、积分、学习进度和收藏都会保留，以后用微信或手机号登录都是同一个账号。'

const phoneOf433 = (code: number) => (code === 433 ? 'phone' : null)

/**
 * Binds a phone to the signed-in member (POST /bind_phone_send_code, /bind_phone; issue 10 §3), on /headPortrait
 * and wherever a phone is required (/ke2). When another member already holds the phone, the send step says so
 * and the form explains the merge before the code is entered; after a merge the answer carries the surviving
 * member's new token, which replaces the old one.
 */
export function BindPhoneForm({ onBound }: { onBound?: (user: UserInfo, merged: boolean) => void }) {
  const form = usePhoneCode()
  const [merge, setMerge] = useState(false)

  const sendCode = () =>
    form.sendCode(async (phone) => {
      const answer = await api.post<{ merge: boolean }>('/bind_phone_send_code', { phone }, { quiet: true })
      setMerge(answer.merge)
    }, phoneOf433)

  const bind = async (phone: string, code: string) => {
    // The spec's bindPhone click statistic, from the bind button, as a beacon that never delays the binding.
    sendStat('bindPhone')
    const answer = await api.post<BindAnswer>(
      '/bind_phone',
      { phone, phone_code: code, platform: currentPlatform() },
      { quiet: true },
    )
    const { merged, token, expire_in, ...profile } = answer
    if (token && expire_in) authStore.login({ token, expire_in }, profile)
    else authStore.update(profile)
    toast(merged ? '账号已合并' : '绑定成功', { icon: 'success' })
    onBound?.(profile, merged)
  }

  return (
    <form
      className={phoneCodeFormClass}
      onSubmit={(e) => void form.submit(e, bind, (c) => (c === 405 || c === 406 ? 'code' : phoneOf433(c)))}
      noValidate
      aria-label="绑定手机号"
    >
      <PhoneCodeFields
        form={form.fields}
        codeInput={form.codeInput}
        onSend={() => void sendCode()}
        sendTestId="bind-send-code"
        onPhoneEdit={() => setMerge(false)}
      />
      {merge ? (
        <p className={styles.merge} role="note">
          {MERGE_NOTICE}
        </p>
      ) : null}
      <button type="submit" className={styles.submit} disabled={form.submitting} aria-busy={form.submitting}>
        {form.submitting ? '提交中…' : merge ? '验证并合并账号' : '绑定手机号'}
      </button>
    </form>
  )
}
