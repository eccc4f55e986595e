import type { CodeEntry } from './codes.ts'

/** The one error type services throw; the error handler renders it as the envelope with its code. */
export class AppError extends Error {
  readonly entry: CodeEntry
  readonly data: unknown

  constructor(entry: CodeEntry, message?: string, data?: unknown) {
    super(message ?? entry.msg)
    this.name = 'AppError'
    this.entry = entry
    this.data = data
  }
}
