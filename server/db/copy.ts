// COPY … TO STDOUT and COPY … FROM STDIN over node-postgres, the way pg_dump moves table data: node-postgres hands
// a "submittable" query the protocol's CopyData messages and, for COPY FROM, the connection to send them on (the
// same hooks the pg-copy-streams package uses). Used by the backup (server/db/dump.ts).
import { once } from 'node:events'
import type { Readable, Writable } from 'node:stream'
import type pg from 'pg'

/** The parts of node-postgres's connection a COPY uses (present since pg 7; not in its type declarations). */
type CopyConnection = pg.Connection & {
  sendCopyFromChunk(chunk: Buffer): void
  endCopyFrom(): void
  sendCopyFail(message: string): void
}

abstract class CopyQuery implements pg.Submittable {
  /** Rows the server reports it copied (its CommandComplete: `COPY n`). */
  rows = 0
  readonly done: Promise<void>
  protected connection: CopyConnection | null = null
  private settle!: { resolve: () => void; reject: (err: Error) => void }
  private failed = false
  readonly text: string

  constructor(text: string) {
    this.text = text
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }))
  }
  submit(connection: pg.Connection) {
    this.connection = connection as CopyConnection
    connection.query(this.text)
  }
  handleCommandComplete(msg: { text?: string }) {
    this.rows = Number(/^COPY (\d+)/.exec(msg.text ?? '')?.[1] ?? 0)
  }
  handleReadyForQuery() {
    if (!this.failed) this.settle.resolve()
  }
  // The client calls this instead of handleReadyForQuery after an error (and for a broken connection).
  handleError(err: Error) {
    this.failed = true
    this.connection?.stream.resume()
    this.settle.reject(err)
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
  handleCopyData(_msg: { chunk: Buffer }) {}
  handleCopyInResponse(connection: pg.Connection) {
    ;(connection as CopyConnection).sendCopyFail('not a COPY FROM STDIN')
  }
}

class CopyOut extends CopyQuery {
  private readonly sink: Writable
  constructor(text: string, sink: Writable) {
    super(text)
    this.sink = sink
  }
  override handleCopyData(msg: { chunk: Buffer }) {
    // The parser's buffer is reused for the next messages: keep a copy. A slow disk holds the socket (and so the
    // server) back instead of filling memory.
    if (!this.sink.write(Buffer.from(msg.chunk)) && this.connection) {
      const socket = this.connection.stream
      socket.pause()
      this.sink.once('drain', () => socket.resume())
    }
  }
}

class CopyIn extends CopyQuery {
  private readonly source: Readable
  constructor(text: string, source: Readable) {
    super(text)
    this.source = source
  }
  override handleCopyInResponse(connection: pg.Connection) {
    const c = connection as CopyConnection
    void (async () => {
      try {
        for await (const chunk of this.source) {
          c.sendCopyFromChunk(chunk as Buffer)
          if (c.stream.writableNeedDrain) await once(c.stream, 'drain')
        }
        c.endCopyFrom()
      } catch (err) {
        c.sendCopyFail(err instanceof Error ? err.message : String(err))
      }
    })()
  }
}

/** Runs `COPY … TO STDOUT` on `client`, writing its output to `sink` (not ended); resolves with the row count. */
export async function copyOut(client: pg.ClientBase, sql: string, sink: Writable): Promise<number> {
  const query = client.query(new CopyOut(sql, sink))
  await query.done
  return query.rows
}

/** Runs `COPY … FROM STDIN` on `client`, reading `source` to its end; resolves with the row count. */
export async function copyIn(client: pg.ClientBase, sql: string, source: Readable): Promise<number> {
  const query = client.query(new CopyIn(sql, source))
  await query.done
  return query.rows
}
