import { useState, type FormEvent } from 'react'
import { Link, useLocation, useSearchParams } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { checkPhone, PHONE_MAX_LENGTH } from '#app/lib/validators.ts'
import own from './tuition.module.css'

export function meta({ location }: { location: { pathname: string } }) {
  return [{ title: `${location.pathname.endsWith('2') ? '预约咨询' : '课程报名'} - 自学` }]
}

type Field = 'name' | 'phone' | 'interest'
const TIMES = ['随时都可以', '工作日白天', '工作日晚上', '周末']

/**
 * /form/1 (course sign-up) and /form/2 (consultation): name, phone (spec 5), the course or interest and a time
 * to call (POST /course/signUp). A field the server refuses is marked with its message.
 */
export default function LeadForm() {
  const consult = useLocation().pathname.endsWith('/2')
  const [params] = useSearchParams()
  const courseId = Number(params.get('course_id')) || null
  const [name, setName] = useState('')
  const [phone, setPhone] = useState('')
  const [interest, setInterest] = useState(params.get('course') ?? '')
  const [time, setTime] = useState(TIMES[0]!)
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const p = checkPhone(phone)
    const local: Partial<Record<Field, string>> = {}
    if (!name.trim()) local.name = '请输入姓名'
    if (p.error) local.phone = p.error
    if (!consult && !courseId && !interest.trim()) local.interest = '请选择想报名的课程'
    setErrors(local)
    if (Object.keys(local).length > 0) return
    setBusy(true)
    try {
      await api.post(
        '/course/signUp',
        {
          form: consult ? 2 : 1,
          name: name.trim(),
          phone: p.value,
          course_id: courseId,
          interest: interest.trim(),
          contact_time: time,
          page: consult ? '/form/2' : '/form/1',
        },
        { quiet: true },
      )
      setDone(true)
    } catch (err) {
      const field = (err instanceof ApiError && (err.data as { field?: Field } | undefined)?.field) || 'phone'
      setErrors({ [field]: err instanceof ApiError ? err.message : '提交失败，请稍后再试' })
    } finally {
      setBusy(false)
    }
  }

  const title = consult ? '预约咨询' : '课程报名'
  const input = (f: Field) => `${own.input} ${errors[f] ? own.inputError : ''}`
  const message = (f: Field) =>
    errors[f] ? (
      <p className={own.error} id={`${f}-error`} role="alert">
        {errors[f]}
      </p>
    ) : null

  return (
    <main className={styles.page}>
      <NavBar title={title} />
      <div className={styles.body}>
        {done ? (
          <section className={`${styles.card} ${own.success}`} aria-live="polite">
            <h2 className={styles.cardTitle}>提交成功</h2>
            <p className={styles.muted}>课程顾问会在你方便的时间（{time}）联系你，请留意来电。</p>
            <Link to="/" className={styles.linkButton}>
              返回首页
            </Link>
          </section>
        ) : (
          <form className={styles.card} onSubmit={submit} noValidate aria-label={title}>
            <h2 className={styles.cardTitle}>{consult ? '留下联系方式，顾问为你解答' : '填写报名信息'}</h2>
            <label className={own.field}>
              <span className={own.label}>姓名</span>
              <input
                className={input('name')}
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={40}
                autoComplete="name"
                aria-invalid={!!errors.name}
              />
              {message('name')}
            </label>
            <label className={own.field}>
              <span className={own.label}>手机号</span>
              <input
                className={input('phone')}
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
                inputMode="numeric"
                maxLength={PHONE_MAX_LENGTH}
                autoComplete="tel"
                placeholder="请输入手机号"
                aria-invalid={!!errors.phone}
              />
              {message('phone')}
            </label>
            <label className={own.field}>
              <span className={own.label}>{consult ? '想咨询的内容' : '想报名的课程'}</span>
              <input
                className={input('interest')}
                value={interest}
                onChange={(e) => setInterest(e.target.value)}
                maxLength={100}
                placeholder={consult ? '如：学费分期、上课方式' : '如：插画系统课'}
                aria-invalid={!!errors.interest}
              />
              {message('interest')}
            </label>
            <label className={own.field}>
              <span className={own.label}>方便联系的时间</span>
              <select className={own.input} value={time} onChange={(e) => setTime(e.target.value)}>
                {TIMES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <div className={styles.actions}>
              <button type="submit" className={styles.button} disabled={busy}>
                {busy ? '正在提交…' : '提交'}
              </button>
            </div>
            <p className={styles.muted}>提交即表示你同意我们通过电话或微信与你联系，信息仅用于课程咨询。</p>
          </form>
        )}
      </div>
    </main>
  )
}
