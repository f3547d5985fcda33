import type { AnchorRecord, AttestationRecord, WitnessRequestRecord, StoredRecord } from '../schema/index.js'
import type { Link } from './prepare.js'

/**
 * The RecordStore reads of what is linked to a memory, written once for every store: each store
 * says how it reads the records behind one link (`linkedRecords`), and the link names the kind.
 */
export abstract class LinkedRecordReads {
  /** The records `from` links to by `link`, in the store's order. */
  protected abstract linkedRecords (link: Link, from: string): Promise<StoredRecord[]>

  async attestationsFor (memoryId: string): Promise<Array<StoredRecord<AttestationRecord>>> {
    return await this.linkedRecords('attestations', memoryId) as Array<StoredRecord<AttestationRecord>>
  }

  async anchorsFor (memoryId: string): Promise<Array<StoredRecord<AnchorRecord>>> {
    return await this.linkedRecords('anchors', memoryId) as Array<StoredRecord<AnchorRecord>>
  }

  async witnessRequestsFor (memoryId: string): Promise<Array<StoredRecord<WitnessRequestRecord>>> {
    return await this.linkedRecords('witness_requests', memoryId) as Array<StoredRecord<WitnessRequestRecord>>
  }
}
