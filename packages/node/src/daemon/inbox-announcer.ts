import type { ApiEventHub } from '../operations/index.js'
import type { Keystore } from '../keystore/index.js'
import type { Logger } from '../log/index.js'
import type { InboxEntry, LocalNode } from '../node/index.js'

export interface AnnouncerContext {
  node: LocalNode
  hub: ApiEventHub
  keystore: Keystore
  /** Requesters whose witness requests local agents confirm on their own (off when empty). */
  autoConfirmFrom: readonly string[]
  logger: Logger
}

/**
 * A new inbox item (a witness request, or a memory the witness draw chose local agents for): tells
 * API subscribers, and runs the auto-answer policy. A drawn item goes through the policy as a
 * request from the memory's author would: its `requester` is the author. The attest path adds the
 * draw to a drawn agent's attestation (LocalNode.attest).
 */
export async function announceItem (init: AnnouncerContext, item: InboxEntry, agents: readonly string[]): Promise<void> {
  init.hub.emit({ type: 'inbox', data: item })
  if (item.drawn === true) init.logger.info('inbox: drawn as witness of a memory', { memory: item.memory, author: item.requester, to: item.to })
  else init.logger.info('inbox: a witness request waits for an answer', { request: item.request, memory: item.memory, requester: item.requester, to: item.to })
  if (!init.autoConfirmFrom.includes(item.requester)) return
  const targets = item.to.length > 0 ? item.to : agents.filter((did) => did !== item.requester)
  for (const did of targets) {
    const key = await init.keystore.load(did).catch(() => null)
    if (key === null) continue // encrypted keys need a person: the item stays in the inbox
    const why = item.drawn === true ? `drawn witnesses confirm memories of ${item.requester} by this node's policy` : `requests from ${item.requester} are confirmed by this node's policy`
    await init.node.attest({ memory: item.memory, verdict: 'confirm', notes: `auto-confirmed: ${why}` }, { did: key.did, secretKey: key.secretKey })
    key.secretKey.fill(0)
    init.logger.info('auto-confirmed', { memory: item.memory, witness: did, requester: item.requester, drawn: item.drawn === true })
  }
}
