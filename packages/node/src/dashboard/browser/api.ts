/*
 * The page's calls to the node's /v1 API on its own origin, each with the bearer token. Failures are
 * sorted into what the person can act on: no token, a wrong token, a daemon that is not running,
 * or the node's own error with its stable code.
 */

export type FailureKind = 'no-token' | 'unauthorized' | 'unreachable' | 'api'

export class DashboardFailure extends Error {
  constructor (readonly kind: FailureKind, message: string, readonly code?: string) {
    super(message)
  }
}

/** What to tell the person for each failure: what is wrong, then what to do. */
export function adviceFor (failure: DashboardFailure): { title: string, advice: string } {
  switch (failure.kind) {
    case 'no-token':
      return {
        title: 'This page has no API token.',
        advice: 'Run `isnad dashboard` in the node\'s home and open the URL it prints: the token travels after the #, which the browser never sends to any server.'
      }
    case 'unauthorized':
      return {
        title: 'The node refused this page\'s token (401).',
        advice: 'The URL belongs to another node or to a token that was replaced. Run `isnad dashboard` again in the node\'s home and open the new URL.'
      }
    case 'unreachable':
      return {
        title: `Cannot reach the isnad daemon at ${location.origin}: it is not running.`,
        advice: 'Start it with `isnad start` in the node\'s home, then run `isnad dashboard` and open the URL it prints.'
      }
    case 'api':
      return { title: `The node answered ${failure.code ?? 'an error'}.`, advice: failure.message }
  }
}

export interface Api {
  get: <T>(path: string, query?: URLSearchParams) => Promise<T>
  post: <T>(path: string, body: unknown) => Promise<T>
}

export function createApi (token: string | null): Api {
  const request = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    if (token === null) throw new DashboardFailure('no-token', 'no token')
    let response: Response
    try {
      response = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    } catch {
      throw new DashboardFailure('unreachable', 'the daemon did not answer')
    }
    if (response.status === 401) throw new DashboardFailure('unauthorized', 'wrong token')
    const json: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      const error = (json as { error?: { code?: string, message?: string } } | undefined)?.error
      throw new DashboardFailure('api', error?.message ?? `HTTP ${response.status}`, error?.code)
    }
    return json as T
  }
  return {
    get: async (path, query) => await request('GET', query === undefined || query.size === 0 ? path : `${path}?${query.toString()}`),
    post: async (path, body) => await request('POST', path, body)
  }
}

/**
 * The token from the URL fragment (`#token=…`), kept for this tab in sessionStorage and then removed
 * from the address bar, so it stays out of the history, bookmarks and screenshots.
 */
export function takeToken (): string | null {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token')
  if (fromHash !== null && fromHash !== '') {
    sessionStorage.setItem('isnad-token', fromHash)
    history.replaceState(null, '', location.pathname + location.search)
    return fromHash
  }
  return sessionStorage.getItem('isnad-token')
}
