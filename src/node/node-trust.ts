import { join } from 'node:path'
import { isIsnadError } from '../errors/index.js'
import type { Keyring } from '../key-events/index.js'
import { META_DIR, metaFileText, readPolicy, writeMetaFile } from '../ledger/meta/index.js'
import type { TrustPolicyName } from '../schema/index.js'
import type { RecordStore } from '../store/index.js'
import { DEFAULT_TRUST_POLICY, getTrustPolicy, type KeyIdentities, type ReputationLookup } from '../trust/index.js'
import type { AgentReputation, ReputationTable } from '../reputation/index.js'
import { ReputationService } from './reputation-service.js'

export interface NodeTrustInit {
  dataDir: string
  store: RecordStore
  clock: () => number
  /** The node's keyring once open (issue 9): witnesses then count per identity. */
  keyring?: () => Keyring | undefined
}

/** The policy and reputation a node scores with (see scoreEvidence's NodeTrustSetting). */
export interface TrustSetting {
  policy: TrustPolicyName
  /** Absent when the node has no trust roots: every agent then has the default 0.5. */
  reputation?: ReputationLookup
  /** The node's keyring (issue 9): witnesses count per identity, refused keys not at all. */
  identities?: KeyIdentities
}

/**
 * A node's trust setting (DESIGN §2): the policy named in `_meta/policy.json` (`trust_policy`, a
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
        this.policy = DEFAULT_TRUST_POLICY
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

  /** The setting ingest stores scores with: a reputation table at most INGEST_REPUTATION_MAX_AGE_MS old. */
  async storedSetting (): Promise<TrustSetting> {
    return await this.settingWith(async (identities) => await this.reputation.recent(identities))
  }

  private async settingWith (table: (identities?: KeyIdentities) => Promise<ReputationTable>): Promise<TrustSetting> {
    const policy = await this.policyName()
    const keyring = this.init.keyring?.()
    const identities = keyring === undefined ? undefined : this.identitiesOf(keyring)
    const base = identities === undefined ? { policy } : { policy, identities }
    // Without roots there is nothing to compute: skip loading the attestation graph.
    if ((await this.reputation.trustRoots()).length === 0) return base
    return { ...base, reputation: (await table(identities)).lookup }
  }

  private keyring: { keyring: Keyring, identities: KeyIdentities } | undefined

  /** One adapter per keyring; a key event it accepts changes who counts, so the table is recomputed. */
  private identitiesOf (keyring: Keyring): KeyIdentities {
    if (this.keyring?.keyring !== keyring) {
      keyring.onAdded(() => { this.reputation.invalidate() })
      this.keyring = { keyring, identities: keyringIdentities(keyring) }
    }
    return this.keyring.identities
  }

  /** `get_reputation` of the provenance schema, with the rank and the path from a root. */
  async describe (did: string): Promise<AgentReputation> {
    const keyring = this.init.keyring?.()
    return (await this.reputation.current(keyring === undefined ? undefined : this.identitiesOf(keyring))).describe(did)
  }
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

/** A keyring as src/trust's KeyIdentities: identities and key status at a time (record-v1 K12). */
export function keyringIdentities (keyring: Keyring): KeyIdentities {
  return {
    identityOf: (did) => keyring.identityOf(did),
    named: (did) => keyring.statusOf(did, 0) !== undefined,
    refusalAt: (did, at) => {
      const status = keyring.statusOf(did, at)
      return status?.status === 'refused' ? status.code : undefined
    }
  }
}
