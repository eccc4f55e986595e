import { describe, expect, it } from 'vitest'
import { createBusinessEvents, type BusinessEvent } from './business-events.ts'

const paid: BusinessEvent = { event: 'order.paid', order_no: 'ZX1', member_id: 7, amount_fen: 100, provider: 'wechat' }

describe('business events (server/http/business-events.ts)', () => {
  it('logs at once outside a transaction, and after the commit inside one', async () => {
    const logged: string[] = []
    const events = createBusinessEvents({ info: (_fields, message) => logged.push(message) })
    events.emit(paid)
    expect(logged).toEqual(['order.paid'])
    await events.afterCommit(async () => {
      events.emit({ ...paid, order_no: 'ZX2' })
      await new Promise((r) => setTimeout(r, 5))
      expect(logged).toEqual(['order.paid'])
    })
    expect(logged).toEqual(['order.paid', 'order.paid'])
  })

  it('drops what a rolled-back transaction emitted, so its retry logs it once', async () => {
    const logged: object[] = []
    const counted: string[] = []
    const events = createBusinessEvents({ info: (fields) => logged.push(fields) }, (e) => counted.push(e))
    await expect(
      events.afterCommit(async () => {
        events.emit(paid)
        throw new Error('serialization failure')
      }),
    ).rejects.toThrow('serialization failure')
    await events.afterCommit(async () => events.emit(paid))
    expect(logged).toEqual([paid])
    expect(counted).toEqual(['order.paid'])
  })
})
