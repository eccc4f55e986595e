import { useState } from 'react'
import { showLogin } from './events.ts'

/**
 * A member's tap that writes (favourite, follow): visitors without a token get the login popup, and one request
 * runs at a time (`busy` disables the button meanwhile). A failed request has already been explained by the API
 * wrapper's toast, so `run` swallows it.
 */
export function useMemberAction(token: string | null) {
  const [busy, setBusy] = useState(false)

  async function run(action: (token: string) => Promise<void>) {
    if (!token) {
      showLogin()
      return
    }
    if (busy) return
    setBusy(true)
    try {
      await action(token)
    } catch {
      // The request wrapper has shown why.
    } finally {
      setBusy(false)
    }
  }

  return { busy, run: (action: (token: string) => Promise<void>) => void run(action) }
}
