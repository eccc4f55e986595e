// The entry points' last line of defence (server/main.ts, server/db/seed-command.ts, scripts/*.ts): whatever
// fails prints one sentence a person can act on, and the process exits 1. Never `undefined`, never a bare stack.
import { ConfigError } from '#server/config.ts'

/** A readable sentence for anything thrown or rejected, including non-Errors and AggregateErrors with no message. */
function describeError(err: unknown): string {
  if (err instanceof ConfigError) return err.message
  if (err instanceof AggregateError && err.errors.length > 0) {
    const parts = [...new Set(err.errors.map(describeError))]
    return err.message ? `${err.message}: ${parts.join('; ')}` : parts.join('; ')
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code
    const text = err.message || err.name
    const hint = code === 'ECONNREFUSED' ? ' (is the database running, and is its address right?)' : ''
    return code && !text.includes(code) ? `${text} (${code})${hint}` : `${text}${hint}`
  }
  if (err === undefined || err === null) return 'it stopped without saying why'
  if (typeof err === 'string') return err
  try {
    return JSON.stringify(err)
  } catch {
    return Object.prototype.toString.call(err)
  }
}

/**
 * Runs an entry point's `main`: a failure (a throw, a rejection, or an unhandled one from elsewhere) prints
 * `<what> failed: <sentence>` on stderr and exits 1. `onFailure` runs first (stop what was started).
 */
export function runCommand(what: string, main: () => Promise<void>, onFailure?: () => Promise<void>) {
  // `npm start` runs server/main.ts inside its own command: the innermost one speaks for the process.
  active = (err, unexpected) => {
    if (failing) return
    failing = true
    console.error(`${what} failed: ${describeError(err)}`)
    // Something nobody caught is a bug: its stack goes along, after the sentence.
    if (unexpected && err instanceof Error && err.stack) console.error(err.stack)
    const cleanup = onFailure ? onFailure().catch(() => {}) : Promise.resolve()
    void cleanup.finally(() => process.exit(1))
  }
  if (!installed) {
    installed = true
    process.on('unhandledRejection', (err) => active?.(err, true))
    process.on('uncaughtException', (err) => active?.(err, true))
  }
  const fail = active
  main().catch((err: unknown) => fail(err, false))
}

let installed = false
let failing = false
let active: ((err: unknown, unexpected: boolean) => void) | null = null
