/*
 * The driver's fetch for the nodes' HTTP APIs (live-nodes.ts, remote-pool.ts). A pooled keep-alive
 * connection the node has just closed as idle (Node's server closes them after 5 s) fails the next
 * request before the node reads it: undici's "other side closed" (UND_ERR_SOCKET) or ECONNRESET.
 * On a loaded machine, where timers fire late, that race is common enough to end a run in
 * containers (seen with docker-compose on this project's 2-core machine at load 36). A read (GET)
 * that fails so is sent once more on a fresh connection; writes are not repeated, since the node
 * may have acted on them.
 */

const STALE = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_CLOSED'])

function staleSocket (err: unknown): boolean {
  const cause = err instanceof Error ? err.cause : undefined
  return cause instanceof Error && 'code' in cause && typeof cause.code === 'string' && STALE.has(cause.code)
}

export const retryingFetch: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init)
  } catch (err) {
    const method = (init?.method ?? 'GET').toUpperCase()
    if (method !== 'GET' || !staleSocket(err) || init?.signal?.aborted === true) throw err
    return await fetch(input, init)
  }
}
