/**
 * A short mark of a session token (FNV-1a, 32 bits, base 36): the server puts it next to the member data it
 * rendered from the session cookie, and the browser compares it with the mark of the token it holds, to know
 * whether that data is its own member's (docs/decisions/2026-11-26-member-session-cookie.md). It identifies, it
 * does not protect: 32 bits of a hash say nothing usable about a 256-bit token.
 */
export function tokenMark(token: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}
