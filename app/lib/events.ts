/**
 * The window events the shell listens to (spec 4): anything anywhere can ask for the login popup, the consult
 * button, or announce a login, without importing the components that react.
 */
export const AppEvent = {
  /** Open the login popup; detail `{ target }` is where to go after logging in (default: the current page). */
  showLogin: 'showLogin',
  /** Close the login popup and reload the page (spec 4). */
  hideLogin: 'hideLogin',
  /** A member has just logged in (phone code or WeChat). */
  login: 'login',
  /** The member logged out or the session ended. */
  logout: 'logout',
  /** Show the floating "consult" button, which opens the consult link. */
  showConsult: 'showConsult',
  hideConsult: 'hideConsult',
} as const

export type AppEventName = (typeof AppEvent)[keyof typeof AppEvent]

export interface ShowLoginDetail {
  /** Path (with query) to open after a successful login. */
  target?: string
  /** Forced purchaser mode (spec 6): only the purchase phone, no WeChat. */
  ke2?: boolean
}

function target(): EventTarget | null {
  return typeof window === 'undefined' ? null : window
}

export function emitAppEvent<T>(name: AppEventName, detail?: T, on: EventTarget | null = target()): void {
  on?.dispatchEvent(new CustomEvent(name, { detail }))
}

/** Listens to one app event; returns the function that stops listening. */
export function onAppEvent<T>(
  name: AppEventName,
  handler: (detail: T | undefined) => void,
  on: EventTarget | null = target(),
): () => void {
  if (!on) return () => {}
  const listener = (event: Event) => handler((event as CustomEvent<T>).detail)
  on.addEventListener(name, listener)
  return () => on.removeEventListener(name, listener)
}

/** The current page as path plus query, the default target after login. */
export function currentPath(): string {
  if (typeof window === 'undefined') return '/'
  return `${window.location.pathname}${window.location.search}`
}

/** Opens the login popup (spec 4 showLogin). */
export function showLogin(detail: ShowLoginDetail = {}): void {
  emitAppEvent<ShowLoginDetail>(AppEvent.showLogin, { target: detail.target ?? currentPath(), ke2: detail.ke2 })
}
