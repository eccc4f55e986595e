import type http from 'node:http'
import type { AddressInfo } from 'node:net'

/** Starts a provider simulator's server on a free port of this machine: its base URL and how to stop it. */
export async function listenLocally(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
