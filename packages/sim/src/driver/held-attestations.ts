import type { LiveNodes } from './live-nodes.js'
import { attestationKey, type Observations } from './observations.js'

/*
 * Attestation delivery counts what each node's event stream reported (driver.ts). A node that left
 * and joins again reopens its stream only once its daemon is up, and by then sync-v1 may already
 * have handed it what reached its peers while it was away: those arrivals happen unseen, and the
 * delivery figure fell short (churn-partition: 0.9885 at 20, 40 and 80 s per simulated minute
 * alike) although every record was there. Under heavy load a stream can also drop events
 * (mixed-adversaries at load 25: 19 arrivals unseen, no churn). At the end of the drive, each node online that lacks an
 * arrival is asked (its export, as `isnad export`) which of those attestations it holds; a held one
 * counts as delivered, with no latency sample (its arrival time is unknown).
 */

/** Memories per export request, as trust-views.ts asks. */
const EXPORT_CHUNK = 100

/** Marks, on each attestation's observation, the online nodes that hold it without an observed arrival. Returns how many. */
export async function noteHeldAttestations (observations: Observations, nodes: LiveNodes): Promise<number> {
  let found = 0
  for (const node of nodes.online()) {
    const missing = new Set<string>()
    for (const [key, a] of observations.attestations) if (a.witness !== node && !a.arrivals.has(node) && a.held?.has(node) !== true) missing.add(key)
    if (missing.size === 0) continue
    const memories = [...new Set([...missing].map((key) => observations.attestations.get(key)?.memory as string))]
    for (let at = 0; at < memories.length; at += EXPORT_CHUNK) {
      const bundle = await nodes.node(node).ops.call('exportBundle', { ids: memories.slice(at, at + EXPORT_CHUNK) })
      for (const { record } of bundle.records) {
        if (record.kind !== 'attestation') continue
        const key = attestationKey(record.memory, record.witness)
        const observed = observations.attestations.get(key)
        if (observed === undefined || !missing.has(key)) continue
        missing.delete(key)
        observed.held = observed.held ?? new Set()
        observed.held.add(node)
        found++
      }
    }
  }
  return found
}
