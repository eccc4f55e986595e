import crypto from 'node:crypto'
import pg from 'pg'
import type { DbOrTx } from './database.ts'
import { preparedText, queryPrepared } from './prepared.ts'

// Cache invalidation across processes: a write sends the tags it changed with NOTIFY on one channel (inside its
// transaction, so they go out when it commits and never for a rolled-back write); every process LISTENs on that
// channel on a connection of its own and drops the entries carrying those tags (server/http/public-cache.ts).
// PostgreSQL delivers a notification to every listening session, the sender's too, within milliseconds.

const CACHE_CHANNEL = 'zixue_cache'

/** NOTIFY's payload is at most 8,000 bytes: a longer list of tags goes out in several notifications. */
const MAX_PAYLOAD = 7_000

const notify = preparedText('cache_bus_notify', `select pg_notify('${CACHE_CHANNEL}', $1)`)

/** Tells every process (this one too) that what these tags name has changed. */
export async function publishInvalidation(db: DbOrTx, tags: readonly string[]) {
  let batch: string[] = []
  let size = 2
  for (const tag of tags) {
    if (batch.length > 0 && size + tag.length + 3 > MAX_PAYLOAD) {
      await queryPrepared(db, notify, [JSON.stringify(batch)])
      batch = []
      size = 2
    }
    batch.push(tag)
    size += tag.length + 3
  }
  if (batch.length > 0) await queryPrepared(db, notify, [JSON.stringify(batch)])
}

export interface CacheBusListener {
  close(): Promise<void>
}

interface ListenOptions {
  url: string
  /** Called with the tags of each notification. */
  onTags: (tags: string[]) => void
  /**
   * Called when the listening connection was lost and is back: notifications sent meanwhile were missed, so
   * everything cached before may be stale.
   */
  onGap: () => void
  /**
   * Called with true once the connection listens (at the start and after each reconnection, after `onGap`), with
   * false when it is lost or closed: while it is not listening, other processes' writes go unheard.
   */
  onListening?: (listening: boolean) => void
  log: { warn: (obj: object, msg: string) => void }
  /** Wait before reconnecting, in milliseconds. */
  retryMs?: number
  /**
   * How often the connection notifies itself, in milliseconds: a beat not heard back within two more counts as a
   * lost connection (a half-open TCP connection, or a pooler that takes LISTEN but delivers nothing, would otherwise
   * look alive while hearing nothing).
   */
  heartbeatMs?: number
}

/** The tag of a connection's own heartbeat: never passed on. */
const HEARTBEAT = 'cache-bus-heartbeat:'

/** Listens on the channel on a connection of its own, reconnecting after a loss, until `close`. */
export async function listenForInvalidations(options: ListenOptions): Promise<CacheBusListener> {
  const { url, onTags, onGap, log } = options
  let listening = false
  const setListening = (now: boolean) => {
    if (now === listening) return
    listening = now
    options.onListening?.(now)
  }
  const retryMs = options.retryMs ?? 1_000
  const heartbeatMs = options.heartbeatMs ?? 2_000
  let closed = false
  let client: pg.Client | null = null
  let retry: NodeJS.Timeout | undefined
  let heartbeat: NodeJS.Timeout | undefined

  async function connect() {
    const c = new pg.Client({ connectionString: url, application_name: 'zixue-cache-bus', keepAlive: true })
    /** The heartbeat sent and not heard back yet. */
    let awaited: string | null = null
    c.on('notification', (message) => {
      if (message.channel !== CACHE_CHANNEL || !message.payload) return
      try {
        const tags: unknown = JSON.parse(message.payload)
        if (!Array.isArray(tags)) return
        if (tags.includes(awaited)) awaited = null
        onTags(tags.filter((t): t is string => typeof t === 'string' && !t.startsWith(HEARTBEAT)))
      } catch {
        log.warn({ payload: message.payload.slice(0, 200) }, 'cache bus: a notification that is not a JSON list')
      }
    })
    c.on('error', (err) => {
      log.warn({ err }, 'cache bus: the listening connection failed; reconnecting')
      lost(c)
    })
    c.on('end', () => lost(c))
    await c.connect()
    await c.query(`listen ${CACHE_CHANNEL}`)
    client = c
    clearInterval(heartbeat)
    let missed = 0
    heartbeat = setInterval(() => {
      if (awaited) {
        // After the poll phase (setImmediate), so an echo that arrived while the process was busy is read first;
        // and only at the second beat missed, so one slow moment on a loaded machine is not a loss.
        const waiting = awaited
        setImmediate(() => {
          if (awaited !== waiting || ++missed < 2) return
          log.warn({ heartbeatMs }, 'cache bus: the listening connection does not hear its own heartbeat; reconnecting')
          lost(c)
        })
        return
      }
      missed = 0
      awaited = HEARTBEAT + crypto.randomUUID()
      c.query(`select pg_notify('${CACHE_CHANNEL}', $1)`, [JSON.stringify([awaited])]).catch(() => lost(c))
    }, heartbeatMs)
    heartbeat.unref()
  }

  function lost(c: pg.Client) {
    if (closed || client !== c) return
    client = null
    clearInterval(heartbeat)
    setListening(false)
    c.end().catch(() => {})
    const again = () => {
      retry = undefined
      if (closed) return
      connect().then(
        () => {
          if (closed) return
          onGap()
          setListening(true)
        },
        (err: unknown) => {
          log.warn({ err }, 'cache bus: cannot listen yet; trying again')
          retry = setTimeout(again, retryMs)
        },
      )
    }
    retry = setTimeout(again, retryMs)
  }

  await connect()
  setListening(true)
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      clearInterval(heartbeat)
      const c = client
      client = null
      setListening(false)
      await c?.end().catch(() => {})
    },
  }
}
