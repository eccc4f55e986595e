import type { FastifyBaseLogger } from 'fastify'
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/**
 * A request's logger (`request.log`), made the first time the request logs. Fastify makes a child logger for every
 * request; with the app's redaction that was about 2 % of a signed-in read's CPU, and nearly every request logs
 * nothing through it (the access log writes through the app's own logger).
 */
class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined
  readonly #parent: FastifyBaseLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
  }

  get #real() {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options))
  }

  get level() {
    return this.#real.level
  }

  set level(level: string) {
    this.#real.level = level
  }

  fatal: FastifyBaseLogger['fatal'] = (...args: Parameters<FastifyBaseLogger['fatal']>) => this.#log('fatal', args)
  error: FastifyBaseLogger['error'] = (...args: Parameters<FastifyBaseLogger['error']>) => this.#log('error', args)
  warn: FastifyBaseLogger['warn'] = (...args: Parameters<FastifyBaseLogger['warn']>) => this.#log('warn', args)
  info: FastifyBaseLogger['info'] = (...args: Parameters<FastifyBaseLogger['info']>) => this.#log('info', args)
  debug: FastifyBaseLogger['debug'] = (...args: Parameters<FastifyBaseLogger['debug']>) => this.#log('debug', args)
  trace: FastifyBaseLogger['trace'] = (...args: Parameters<FastifyBaseLogger['trace']>) => this.#log('trace', args)
  silent: FastifyBaseLogger['silent'] = (...args: Parameters<FastifyBaseLogger['silent']>) => this.#log('silent', args)

  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.#real.child(bindings, options)
  }

  #log(level: Level, args: unknown[]) {
    Reflect.apply(this.#real[level], this.#real, args)
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when it is first used. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
  return new LazyChildLogger(logger, bindings, options)
}
