import { useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode, type Ref } from 'react'
import { ApiError } from '#app/lib/api.ts'
import { countdownLabel, useCountdown } from '#app/lib/countdown.ts'
import { toast } from '#app/lib/toast.ts'
import {
  CODE_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  checkCode,
  checkPhone,
  digitsOnly,
  limitLength,
} from '#app/lib/validators.ts'
import styles from './phone-code-fields.module.css'

/** The column both forms lay their fields out in. */
export const phoneCodeFormClass = styles.form

// The phone number and SMS code that the login (popup, /ke2) and the phone binding (/headPortrait, /ke2) both ask
// for: one state, one way to send the code and submit, the same two fields. Each form says where the code and the
// values go and which field an error code points at.

export type PhoneCodeField = 'phone' | 'code'

/** Failure messages stay 2 s (spec 8). */
const FAILURE_MS = 2000

/** Which field an API error code marks (null: neither). */
type FieldOf = (code: number) => PhoneCodeField | null

/** The state of a phone-and-code form, with its send-code and submit steps. */
export function usePhoneCode() {
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState<PhoneCodeField | null>(null)
  const [sending, setSending] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const countdown = useCountdown()
  const codeInput = useRef<HTMLInputElement>(null)
  // A ref as well as state: two taps in the same frame must not send twice.
  const inFlight = useRef(false)

  const fail = (message: string, field: PhoneCodeField | null) => {
    setInvalid(field)
    toast(message, { duration: FAILURE_MS })
  }

  const failWith = (error: unknown, fieldOf: FieldOf) => {
    if (error instanceof ApiError && error.kind !== 'login') fail(error.message, fieldOf(error.code))
  }

  /** Checks the phone and `send`s it; once sent, the countdown starts and the code field takes the focus. */
  const sendCode = async (send: (phone: string) => Promise<void>, fieldOf: FieldOf) => {
    if (sending || !countdown.canRequest) return
    const p = checkPhone(phone)
    setPhone(p.value)
    if (p.error) return fail(p.error, 'phone')
    setInvalid(null)
    setSending(true)
    try {
      await send(p.value)
      countdown.start()
      toast('已发送验证码')
      codeInput.current?.focus()
    } catch (error) {
      failWith(error, fieldOf)
    } finally {
      setSending(false)
    }
  }

  /**
   * Submits once at a time: checks both fields (marking the wrong one) and `ready` (the form's own condition; it
   * says why when false), then runs `task` with the checked values.
   */
  const submit = async (
    event: FormEvent,
    task: (phone: string, code: string) => Promise<void>,
    fieldOf: FieldOf,
    ready: () => boolean = () => true,
  ) => {
    event.preventDefault()
    if (inFlight.current) return
    const p = checkPhone(phone)
    const c = checkCode(code)
    setPhone(p.value)
    setCode(c.value)
    if (p.error) return fail(p.error, 'phone')
    if (c.error) return fail(c.error, 'code')
    if (!ready()) return
    setInvalid(null)
    inFlight.current = true
    setSubmitting(true)
    try {
      await task(p.value, c.value)
    } catch (error) {
      failWith(error, fieldOf)
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  // What the fields show and change, apart from the refs (which render never reads).
  const fields = { phone, setPhone, code, setCode, invalid, setInvalid, sending, countdown }
  return { fields, codeInput, fail, submitting, sendCode, submit }
}

type PhoneCodeState = ReturnType<typeof usePhoneCode>['fields']

/**
 * The phone field and the code field with its send button. Editing a field that was wrong clears its mark;
 * `onPhoneEdit` hears of every change of the phone.
 */
export function PhoneCodeFields({
  form,
  codeInput,
  phonePlaceholder = '请输入手机号',
  onSend,
  sendTestId,
  quiet = false,
  onPhoneEdit,
}: {
  form: PhoneCodeState
  codeInput: Ref<HTMLInputElement>
  phonePlaceholder?: string
  onSend: () => void
  sendTestId: string
  /** Lighter, smaller placeholders (the login form). */
  quiet?: boolean
  onPhoneEdit?: () => void
}) {
  const ids = useId()
  const { invalid, setInvalid } = form
  /** A field's new value; editing the field that was wrong clears its mark. */
  const edit = (field: PhoneCodeField, set: (value: string) => void) => (value: string) => {
    set(value)
    if (invalid === field) setInvalid(null)
  }
  return (
    <>
      <DigitsField
        id={`${ids}-phone`}
        label="手机号"
        name="phone"
        type="tel"
        autoComplete="tel"
        maxLength={PHONE_MAX_LENGTH}
        placeholder={phonePlaceholder}
        value={form.phone}
        invalid={invalid === 'phone'}
        quiet={quiet}
        onChange={edit('phone', (value) => {
          form.setPhone(value)
          onPhoneEdit?.()
        })}
      />
      <DigitsField
        id={`${ids}-code`}
        ref={codeInput}
        label="验证码"
        name="phone_code"
        type="text"
        autoComplete="one-time-code"
        maxLength={CODE_MAX_LENGTH}
        placeholder="请输入验证码"
        value={form.code}
        invalid={invalid === 'code'}
        quiet={quiet}
        onChange={edit('code', form.setCode)}
      >
        <button
          type="button"
          className={styles.codeButton}
          disabled={form.countdown.running || form.sending}
          onClick={onSend}
          data-testid={sendTestId}
        >
          {form.sending ? '发送中…' : countdownLabel(form.countdown.left)}
        </button>
      </DigitsField>
    </>
  )
}

/** One of the form's digit fields: its label (for screen readers), the input cut to `maxLength`, what follows it. */
function DigitsField({
  id,
  ref,
  label,
  invalid,
  quiet,
  maxLength,
  onChange,
  children,
  ...input
}: {
  id: string
  ref?: Ref<HTMLInputElement>
  label: string
  invalid: boolean
  quiet: boolean
  maxLength: number
  onChange: (value: string) => void
  children?: ReactNode
} & Required<Pick<InputHTMLAttributes<HTMLInputElement>, 'name' | 'type' | 'autoComplete' | 'placeholder' | 'value'>>) {
  return (
    <div className={invalid ? `${styles.field} ${styles.invalid}` : styles.field}>
      <label htmlFor={id} className="zx-visually-hidden">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        {...input}
        inputMode="numeric"
        pattern="[0-9]*"
        // No maxLength attribute: it would cut "+86 138-0013-8000" before the digits are picked out; the
        // handler keeps at most `maxLength` digits (spec 5).
        aria-invalid={invalid}
        onChange={(e) => onChange(limitLength(digitsOnly(e.target.value), maxLength))}
        className={quiet ? `${styles.input} ${styles.quiet}` : styles.input}
      />
      {children}
    </div>
  )
}
