import { describe, expect, it, vi } from 'vitest'
import { memoryStore } from './browser-storage.ts'
import { announceLogin, LOGIN_TOAST_MS, replayLoginToast } from './login-toast.ts'

vi.mock('./toast.ts', () => ({ toast: vi.fn() }))
const { toast } = await import('./toast.ts')

describe('the login toast (spec 8: 登录成功！)', () => {
  it('waits LOGIN_TOAST_MS (1.5 s) before the caller reloads or leaves, and shows again after the reload', async () => {
    const store = memoryStore()
    const waited: number[] = []
    await announceLogin(true, { store, now: () => 1000, wait: async (ms) => void waited.push(ms) })
    expect(waited).toEqual([LOGIN_TOAST_MS])
    expect(LOGIN_TOAST_MS).toBeGreaterThanOrEqual(1500)
    expect(toast).toHaveBeenCalledWith('登录成功！', expect.objectContaining({ icon: 'success' }))
    vi.mocked(toast).mockClear()
    expect(replayLoginToast({ store, now: () => 5000 })).toBe(true)
    expect(toast).toHaveBeenCalledWith('登录成功！', expect.anything())
    // Once only.
    expect(replayLoginToast({ store, now: () => 6000 })).toBe(false)
  })

  it('does not replay after an in-app navigation (the toast stayed on screen) or when stale', async () => {
    const store = memoryStore()
    await announceLogin(false, { store, wait: async () => {} })
    expect(replayLoginToast({ store })).toBe(false)
    await announceLogin(true, { store, now: () => 0, wait: async () => {} })
    expect(replayLoginToast({ store, now: () => 11 * 60 * 1000 })).toBe(false)
  })
})
