import { addAnchor, checkAnchors, exportBundle, importBundle, latestCheckpoint, observeCheckpoint, proveRecord, reindex, verify } from './evidence-ops.js'
import { follow } from './follow-ops.js'
import { createKey, delegateKey, keyInfo, listKeys, revokeKey, rotateKey, status } from './key-ops.js'
import { attest, explainTrust, history, query, remember, select, show } from './memory-ops.js'
import {
  addTrustRoot, agent, connectPeer, disconnectPeer, gossipHealth, inbox, listTrustRoots, networkStats, peers, removeTrustRoot, reputation,
  requestWitnesses, syncPeers
} from './network-ops.js'
import type { OperationSpec } from './spec.js'

/*
 * The table of operations (docs/architecture.md, "One table of operations"): every operation of the node, declared once.
 * The HTTP routes (http.ts), the client (api-access/client.ts), the CLI, the MCP tools and the library are
 * adapters over it; test/unit/api/operation-table.test.ts walks it against every surface, and
 * scripts/print-routes.ts prints the HTTP API's route table from it.
 */

export const OPERATION_SPECS = {
  status, listKeys, keyInfo, createKey, rotateKey, revokeKey, delegateKey,
  remember, show, explainTrust, history, query, attest, select,
  addAnchor, checkAnchors, verify, exportBundle, importBundle,
  listTrustRoots, addTrustRoot, removeTrustRoot, reputation, agent, follow,
  reindex, proveRecord, latestCheckpoint, observeCheckpoint,
  requestWitnesses, inbox, peers, connectPeer, disconnectPeer, syncPeers, networkStats, gossipHealth
} as const

export type OperationName = keyof typeof OPERATION_SPECS

/** The specs in the table's order (the documentation's order). */
export const OPERATIONS: readonly OperationSpec[] = Object.values(OPERATION_SPECS) as unknown as readonly OperationSpec[]

