import { redirect, type LoaderFunctionArgs } from 'react-router'
import { aliasTarget } from '#app/lib/aliases.ts'

/**
 * The alias URLs of routes.md (/home/home, /aa, /d, /b…, /n/{id}, /s/{id}, /z/{id}, /course): a 302 to the
 * screen they stand for, with the query string (and so `sp`) kept. The targets live in route-rules.ts.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  return redirect(aliasTarget(url.pathname, url.search) ?? '/', 302)
}

export default function Alias() {
  return null
}
