import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'

/** Why a code is sent: signing in, or binding a phone to an account that has none. */
/**
 * `step_up`: a staff member confirms a sensitive action in the console (server/http/step-up.ts). `account`: a member
 * confirms exporting or deleting their data (issue 10 §5).
 */
export type SmsPurpose = 'login' | 'bind' | 'step_up' | 'account' | 'contract'

/** Sends one verification code by SMS. Every provider (console, Aliyun, Tencent, test fakes) implements this. */
export interface SmsProvider {
  readonly name: string
  send(phone: string, code: string, purpose: SmsPurpose): Promise<void>
  /** Development only: the codes sent recently, newest first (the console provider keeps them). */
  readonly outbox?: SmsOutbox
}

export interface OutboxMessage {
  phone: string
  code: string
  purpose: SmsPurpose
  sentAt: Date
}

export interface SmsOutbox {
  list(phone?: string): OutboxMessage[]
}

/**
 * A provider refused or could not be reached. Clients see only Codes.SmsFailed; the provider's own code is kept
 * for the server log.
 */
export class SmsSendError extends AppError {
  readonly provider: string
  readonly providerCode: string
  constructor(provider: string, providerCode: string) {
    super(Codes.SmsFailed)
    this.name = 'SmsSendError'
    this.provider = provider
    this.providerCode = providerCode
  }
}

/** fetch with a deadline; any network failure becomes an SmsSendError. */
export async function postWithTimeout(provider: string, url: string, init: RequestInit, timeoutMs: number) {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    const text = await res.text()
    return { status: res.status, text }
  } catch (err) {
    throw new SmsSendError(provider, err instanceof Error && err.name === 'TimeoutError' ? 'Timeout' : 'NetworkError')
  }
}

/** Parses a provider's JSON answer; anything else is a provider failure. */
export function parseJson(provider: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new SmsSendError(provider, 'BadResponse')
  }
}
