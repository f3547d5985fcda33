import { join } from 'node:path'
import { isIsnadError } from '../../errors/index.js'
import { createKeystore } from '../../keystore/index.js'
import { keyEventsPath, type Keyring } from '../../key-events/index.js'
import { META_DIR, metaFileText, readPolicy, writeMetaFile } from '../../ledger/meta/index.js'
import { NODE_RECORD_FAST_PATHS } from '../../fast-crypto/index.js'
import type { PrivateCheckState, TrustPolicyName } from '../../schema/index.js'
import type { RecordStore, StoredRecord } from '../../record-index/index.js'
import { SCHEMA_TRUST_POLICY, getTrustPolicy, type KeyIdentities } from '../../trust/index.js'
import { populationOf, settingOfTable, type AgentReputation, type ReputationTable, type TrustSetting } from '../../reputation/index.js'
import type { NodePaths } from '../../home/index.js'
import { ReputationService } from './reputation-service.js'
import { EvidenceLedger } from './evidence-ledger.js'
import { EVIDENCE_FETCH, evidenceAgentsNeeded } from './evidence-needs.js'
import type { NodeTrustSetting } from './memory-evidence.js'
import { readTrustRoots } from './trust-roots-file.js'

export interface NodeTrustInit {
  dataDir: string
  store: RecordStore
  clock: () => number
  /** The node's own agents: trust roots without configuration (see ReputationServiceInit). */
  ownAgents?: () => Promise<readonly string[]>
  /** The node's keyring once open: witnesses then count per identity (docs/trust.md §1a). */
  keyring?: () => Keyring | undefined
  /**
   * The shard count the node's operator set (OpenLocalNodeOptions.shardCount): drawn witnesses' stated
   * counts are judged against it (witness-draw-v1 W12), as the daemon's own draw is made within it.
   * @default from N̂ (shardCountFor)
   */
  shardCount?: number
}

/**
 * The trust setting of the node in a home (LocalNode.trust): its data directory's policy and roots,
 * with the node's own agents (the keys under `keys/`) as roots without configuration (docs/trust.md §1).
 */
export function homeNodeTrust (
  paths: Pick<NodePaths, 'data' | 'keys'>, store: RecordStore, clock: () => number, keyring: () => Keyring | undefined, shardCount?: number
): NodeTrust {
  return new NodeTrust({
    dataDir: paths.data,
    store,
    clock,
    keyring,
    ...(shardCount === undefined ? {} : { shardCount }),
    ownAgents: async () => (await createKeystore({ directory: paths.keys }).list()).map((k) => k.did)
  })
}

/**
 * A node's trust setting (docs/trust.md §1): the policy named in `_meta/policy.json` (`trust_policy`, a
 * node setting beside the others that shape what it writes) and the reputation from its roots.
 */
export class NodeTrust {
  readonly reputation: ReputationService
  private policy: TrustPolicyName | undefined

  constructor (private readonly init: NodeTrustInit) {
    this.reputation = new ReputationService(init)
  }

  async policyName (): Promise<TrustPolicyName> {
    if (this.policy === undefined) {
      try {
        this.policy = (await readPolicy(this.init.dataDir)).trust_policy
      } catch (err) {
        // A data directory from before _meta/ existed scores as every node did then.
        if (!isIsnadError(err, 'NOT_INITIALIZED')) throw err
        this.policy = SCHEMA_TRUST_POLICY
      }
    }
    return this.policy
  }

  async setPolicy (name: string): Promise<TrustPolicyName> {
    this.policy = await setTrustPolicy(this.init.dataDir, name)
    return this.policy
  }

  /** The setting `show`, `explain` and `--select` score with: the current reputation. */
  async setting (): Promise<TrustSetting> {
    return await this.settingWith(async (identities) => await this.reputation.current(identities))
  }

  /**
   * The setting `show` and `trust explain` score with: setting(), and, on a node that fetches evidence
   * (a daemon, useEvidenceFetching), the agents the score read whose evidence the node does not hold,
   * said in the result and asked for (docs/trust.md §3a). Queries and rescoring passes do not ask.
   */
  async explainingSetting (): Promise<NodeTrustSetting> {
    const setting: NodeTrustSetting = await this.setting()
    const fetching = this.fetching
    if (fetching === undefined || setting.reputation === undefined) return setting
    const roots = await this.reputation.rootDids()
    const table = this.reputation.lastTable()
    setting.evidenceFor = (agents) => {
      const missing = [...new Set(agents)].filter((did) => !fetching.held(did))
      if (missing.length === 0) return []
      this.evidence.noteScored(missing)
      if (table !== undefined) this.startFetch(roots, table)
      return missing.map((did) => this.evidence.evidenceOf(did, this.reputation.recordsAbout(did), isoOf))
    }
    return setting
  }

  /** What this node asked its peers for, for the evidence its reputation needs (docs/trust.md §3a). */
  readonly evidence = new EvidenceLedger()
  private fetching: EvidenceFetching | undefined

  /**
   * Lets the node fetch the evidence it lacks (a daemon: sync by interest with author interests,
   * src/daemon/evidence-fetch.ts): `held` says whether an agent's shard is one the node holds, `fetch`
   * runs the syncs that ask for the agents the ledger lists (EvidenceLedger.authors).
   */
  useEvidenceFetching (fetching: EvidenceFetching): void {
    this.fetching = fetching
  }

  /** The agents whose evidence the node asks its peers for now: author interests of its sync runs (sync-v1 §9). */
  evidenceAuthors (): string[] {
    return this.evidence.authors(this.init.clock())
  }

  /**
   * One round (the daemon's, every EVIDENCE_FETCH.intervalMs): the agents scores read lately and
   * those near the roots whose evidence is not held, at most EVIDENCE_FETCH.maxAgentsPerRound; the
   * number asked for. Nothing without roots or a fetcher.
   */
  async fetchEvidenceRound (): Promise<number> {
    if (this.fetching === undefined) return 0
    // Nothing asked for and no walk from the roots (the default): no table to read.
    if (EVIDENCE_FETCH.rootRadius <= 0 && this.evidence.recentlyScored().length === 0) return 0
    const roots = await this.reputation.rootDids()
    if (roots.length === 0) return 0
    const keyring = this.init.keyring?.()
    // The last table is enough to choose by: a round does not force a PageRank on a busy node.
    const table = this.reputation.lastTable() ?? await this.reputation.current(keyring === undefined ? undefined : this.identitiesOf(keyring))
    return this.startFetch(roots, table).length
  }

  /** Chooses the agents to ask for now, marks them asked and starts their fetch; they are returned at once. */
  private startFetch (roots: readonly string[], table: ReputationTable): string[] {
    const fetching = this.fetching
    if (fetching === undefined) return []
    const now = this.init.clock()
    const wanted = evidenceAgentsNeeded({
      roots,
      scored: this.evidence.recentlyScored(),
      neighbours: (did) => neighboursIn(table, did),
      held: fetching.held,
      lastAsked: (did) => this.evidence.lastAsked(did),
      now
    })
    if (wanted.length === 0) return wanted
    this.evidence.asked(wanted, now)
    const before = wanted.map((did) => this.reputation.recordsAbout(did))
    // The reputation service is told of stored records as they are stored (the journal's listener),
    // so what the fetch brought is counted when the sync runs end.
    const settle = (): void => {
      wanted.forEach((did, i) => { this.evidence.done(did, this.init.clock(), Math.max(0, this.reputation.recordsAbout(did) - (before[i] as number))) })
    }
    void fetching.fetch(wanted).then(settle, settle)
    return wanted
  }

  /**
   * The setting ingest and the views store scores with, counting the `pending` records of the batch
   * being stored: the current table on a small graph, else one at most INGEST_REPUTATION_MAX_AGE_MS old.
   */
  async storedSetting (pending: readonly StoredRecord[] = []): Promise<TrustSetting> {
    return await this.settingWith(async (identities) => await this.reputation.recent(identities, pending))
  }

  private async settingWith (table: (identities?: KeyIdentities) => Promise<ReputationTable>): Promise<TrustSetting> {
    const policy = await this.policyName()
    const keyring = this.init.keyring?.()
    const identities = keyring === undefined ? undefined : this.identitiesOf(keyring)
    // Without roots (no agent of its own, none added) there is nothing to compute: skip loading the graph.
    const setting = (await this.reputation.rootDids()).length === 0
      ? settingOfTable(policy, undefined, identities)
      : settingOfTable(policy, await table(identities), identities, NODE_RECORD_FAST_PATHS)
    if (this.privateChecks !== undefined) setting.privateCheckOf = this.privateChecks
    if (this.init.shardCount !== undefined) setting.shardCount = this.init.shardCount
    return setting
  }

  private privateChecks: ((memoryId: string) => PrivateCheckState | undefined) | undefined

  /**
   * Tells the explanation whether this node made a private check of a memory (the daemon's private
   * checks, protocols/witness-draw-v1.md): `asked`, `not-sampled`, or undefined when it did not
   * decide (a drawn answer came first, the memory is its own, the daemon restarted since).
   */
  usePrivateChecks (lookup: (memoryId: string) => PrivateCheckState | undefined): void {
    this.privateChecks = lookup
  }

  private keyring: { keyring: Keyring, identities: KeyIdentities } | undefined

  /** The key identities the score judges keys by (key logs: K12, and W11 for draws); undefined before the keyring opens. */
  keyIdentities (): KeyIdentities | undefined {
    const keyring = this.init.keyring?.()
    return keyring === undefined ? undefined : this.identitiesOf(keyring)
  }

  /** One adapter per keyring; a key event it accepts changes who counts, so the table is recomputed. */
  private identitiesOf (keyring: Keyring): KeyIdentities {
    if (this.keyring?.keyring !== keyring) {
      keyring.onAdded(() => { this.reputation.invalidate() })
      this.keyring = { keyring, identities: keyringIdentities(keyring) }
    }
    return this.keyring.identities
  }

  /**
   * N̂, the node's estimate of the agents the witness draw chooses from (docs/trust.md §5a,
   * witness-draw-v1 §6): the distinct agent identities of its reputation graph or the median
   * population its reputable drawn witnesses stated, the larger (src/reputation populationOf), read
   * from the last table the node computed (ingest keeps it at most INGEST_REPUTATION_MAX_AGE_MS old on
   * a large graph), so a call costs no rebuild; the first call computes one. 0 without roots (no graph).
   */
  async populationEstimate (): Promise<number> {
    if ((await this.reputation.rootDids()).length === 0) return 0
    const last = this.reputation.lastTable()
    if (last !== undefined) return populationOf(last, NODE_RECORD_FAST_PATHS)
    return (await this.storedSetting()).populationEstimate ?? 0
  }

  /**
   * The agents of the reputation graph whose reputation from the node's roots is at least `min`
   * (what a private check draws its witness from, docs/trust.md §5a); none without roots.
   */
  async reputableAgents (min: number): Promise<string[]> {
    if ((await this.reputation.rootDids()).length === 0) return []
    const keyring = this.init.keyring?.()
    const table = await this.reputation.current(keyring === undefined ? undefined : this.identitiesOf(keyring))
    return table.graph.agents.filter((did) => table.lookup(did) >= min)
  }

  /**
   * An agent's reputation from the last table the node computed (ingest keeps it fresh), so a call
   * on a hot path costs no rebuild; the first call computes one. What the witness services ask:
   * whether a requester is a stranger, whether a drawn answer weighs anything here.
   */
  async reputationOf (did: string): Promise<number> {
    const last = this.reputation.lastTable()
    return last === undefined ? (await this.describe(did)).reputation : last.lookup(did)
  }

  /** `get_reputation` of the provenance schema, with the rank and the path from a root. */
  async describe (did: string): Promise<AgentReputation> {
    const keyring = this.init.keyring?.()
    return (await this.reputation.current(keyring === undefined ? undefined : this.identitiesOf(keyring))).describe(did)
  }
}

/**
 * A home's trust setting as plain data, read from its files the way a LocalNode reads them: the
 * policy in `_meta/policy.json`, the roots file and the keystore's agents, the key events ledger.
 * What an offline rebuild (reindex) scores with, so it stores what the node would.
 */
export async function homeTrustSpec (paths: Pick<NodePaths, 'data' | 'keys'>): Promise<{ policy: TrustPolicyName, roots: string[], keyEvents: string }> {
  let policy: TrustPolicyName
  try {
    policy = (await readPolicy(paths.data)).trust_policy
  } catch (err) {
    if (!isIsnadError(err, 'NOT_INITIALIZED')) throw err
    policy = SCHEMA_TRUST_POLICY
  }
  const own = (await createKeystore({ directory: paths.keys }).list()).map((k) => k.did)
  const roots = [...new Set([...(await readTrustRoots(paths.data)).map((r) => r.did), ...own])].sort()
  return { policy, roots, keyEvents: keyEventsPath(paths.data) }
}

/**
 * Sets `trust_policy` in `_meta/policy.json` atomically; USAGE for an unknown policy. A running
 * node reads the setting when it opens, so the CLI refuses this while a daemon holds the directory.
 */
export async function setTrustPolicy (dataDir: string, name: string): Promise<TrustPolicyName> {
  const policy = getTrustPolicy(name).name
  const current = await readPolicy(dataDir)
  await writeMetaFile(join(dataDir, META_DIR, 'policy.json'), metaFileText({ ...current, trust_policy: policy }))
  return policy
}

/** What a node that fetches evidence supplies (useEvidenceFetching). */
export interface EvidenceFetching {
  held: (did: string) => boolean
  fetch: (dids: readonly string[]) => Promise<void>
}

/** The agents `did`'s walk edges reach in the table's graph (endorsements, acknowledgements). */
function * neighboursIn (table: ReputationTable, did: string): Generator<string> {
  const { graph } = table
  const i = graph.index.get(did)
  if (i === undefined) return
  for (let e = graph.offsets[i] as number; e < (graph.offsets[i + 1] as number); e++) yield graph.agents[graph.targets[e] as number] as string
}

function isoOf (ms: number): string {
  return new Date(ms).toISOString()
}

/** A keyring as src/trust's KeyIdentities: identities, key status at a time and when each key came in (record-v1 K12). */
export function keyringIdentities (keyring: Keyring): KeyIdentities {
  return {
    identityOf: (did) => keyring.identityOf(did),
    named: (did) => keyring.statusOf(did, 0) !== undefined,
    refusalAt: (did, at) => {
      const status = keyring.statusOf(did, at)
      return status?.status === 'refused' ? status.code : undefined
    },
    introducedAt: (did) => keyring.stateOf(keyring.identityOf(did))?.keys.get(did)?.from
  }
}
