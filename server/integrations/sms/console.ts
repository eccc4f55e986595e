import type { OutboxMessage, SmsOutbox, SmsProvider, SmsPurpose } from './sms.ts'

const OUTBOX_SIZE = 50

export interface ConsoleSmsOptions {
  /** Print `[sms] phone → code` to stdout: only in the demo and in development, where nobody receives SMS. */
  print: boolean
  now?: () => Date
  write?: (line: string) => void
}

/**
 * The development and demo provider: sends nothing, prints one plain line (never through the structured logger,
 * which must not carry codes) and keeps the last 50 messages for the development outbox page.
 */
export function createConsoleSms(options: ConsoleSmsOptions): SmsProvider {
  const messages: OutboxMessage[] = []
  const now = options.now ?? (() => new Date())
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`))
  const outbox: SmsOutbox = {
    list: (phone) => (phone ? messages.filter((m) => m.phone === phone) : [...messages]),
  }
  return {
    name: 'console',
    outbox,
    async send(phone: string, code: string, purpose: SmsPurpose) {
      messages.unshift({ phone, code, purpose, sentAt: now() })
      messages.length = Math.min(messages.length, OUTBOX_SIZE)
      if (options.print) write(`[sms] ${phone} → ${code} (${purpose})`)
    },
  }
}
