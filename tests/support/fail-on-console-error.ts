import { afterEach, vi } from 'vitest'

// A test that makes the code under test print an unexpected console.error fails: errors must be handled.
const spy = vi.spyOn(console, 'error')
afterEach(() => {
  const calls = spy.mock.calls
  spy.mockClear()
  if (calls.length > 0)
    throw new Error(`Unexpected console.error: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`)
})
