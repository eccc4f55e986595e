import type { CodeEntry } from './codes.ts'

/** The one error type services throw; the error handler renders it as the envelope with its code. */
export class AppError extends Error {
  readonly entry: CodeEntry
  readonly data: unknown
  /** Seconds the client should wait before trying again, sent as `Retry-After` (429 answers). */
  readonly retryAfterSeconds: number | undefined

  constructor(entry: CodeEntry, message?: string, data?: unknown, options?: { retryAfterSeconds?: number }) {
    super(message ?? entry.msg)
    this.name = 'AppError'
    this.entry = entry
    this.data = data
    this.retryAfterSeconds = options?.retryAfterSeconds
  }
}
