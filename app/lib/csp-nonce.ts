import { createContext as createReactContext } from 'react'
import { createContext } from 'react-router'

/**
 * The Content-Security-Policy nonce of this response (server/http/security-headers.ts), handed by the request
 * handler (server/http/web.ts) through the load context to app/entry.server.tsx, which gives it to React Router's
 * inline scripts. Undefined in development (no CSP) and in the browser (the browser hides nonces after parsing).
 */
export const cspNonceContext = createContext<string | undefined>(undefined)

/** The same nonce for components (root.tsx's `<Scripts>` and `<ScrollRestoration>`). */
export const CspNonce = createReactContext<string | undefined>(undefined)
