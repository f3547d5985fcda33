import {
  EVENT_SCHEMA_VERSION, EVENT_TYPES, ID_PREFIXES, OBJECT_SCHEMA_VERSION, VIEW_OBJECT_TYPES
} from '../../schema/index.js'
import {
  ATTACHMENT_SCHEMA_VERSION, DEFAULT_CORRECTION_TYPE, OBJECT_TYPE_OF_CONTENT, REDUCERS_FILE, REDUCTION_SCHEMA_VERSION,
  VIEW_REDUCER, VIEW_RULES_VERSION
} from '../object-views/index.js'
import { SPEC_FILE_FORMAT } from './constants.js'

/**
 * `_meta/spec.json` (Memory Format Spec V3.1 §3): which spec this directory follows and what isnad
 * adds to it, in data a program can check (docs/architecture.md, "The data directory"). Nothing here depends on the node's settings
 * (those are policy.json) or on the time, so the file only changes when the code's contracts do.
 */

/** The spec's own event types (§5); EVENT_TYPES minus these are isnad's additions (docs/architecture.md, "The data directory"). */
const SPEC_EVENT_TYPES = [
  'memory.instance.started', 'memory.instance.heartbeat', 'memory.instance.stopped', 'memory.captured',
  'memory.distilled', 'memory.published', 'memory.reduced', 'memory.reconciled', 'memory.checkpointed',
  'memory.handoff'
] as const

export function buildSpecFile (): Record<string, unknown> {
  const specTypes: readonly string[] = SPEC_EVENT_TYPES
  return {
    format: SPEC_FILE_FORMAT,
    spec: { name: 'Memory Format Spec', version: 'V3.1', profile: 'diasync-v1' },
    implementation: 'isnad',
    event_schema_version: EVENT_SCHEMA_VERSION,
    object_schema_version: OBJECT_SCHEMA_VERSION,
    schemas: { event: '_meta/event_schema.json', object: '_meta/object_schema.json' },
    event_types: {
      spec: [...SPEC_EVENT_TYPES],
      isnad: EVENT_TYPES.filter((type) => !specTypes.includes(type))
    },
    object_types: [...VIEW_OBJECT_TYPES],
    sharding: {
      streams: 'streams/<scope>/<instance>/YYYY-MM-DD.jsonl (UTC day of ts_wall)',
      bus: 'bus/<scope>/YYYY-MM-DD.jsonl (UTC day of ts_wall)',
      views: 'views/{facts,decisions,commitments}/<scope>/YYYY-MM.jsonl (UTC month of ts)',
      attach: 'views/attach/<scope>/YYYY-MM.jsonl (UTC month of the object ts)',
      archive: 'archive/<path of the shard>.jsonl.gz',
      packs: 'packs/<scope>/<pack CID>.car (CAR v1 of a batch\'s records, named by a memory.packed event; docs/ledger-packs.md)'
    },
    hash: {
      field: 'hash',
      rule: "'sha256:' + lower-case hex SHA-256 of the RFC 8785 (JCS) canonical JSON of the line without its hash field",
      canonicalization: 'RFC 8785',
      algorithm: 'sha256'
    },
    ids: {
      form: '<prefix>_<26 characters of RFC 4648 base32, lower case> (128 bits)',
      prefixes: { ...ID_PREFIXES }
    },
    records: {
      spec: 'isnad record-v1',
      document: 'protocols/record-v1.md',
      identifier: 'CIDv1, dag-cbor, sha2-256, base32 string of the unsigned record',
      schemas: 'protocols/schemas/'
    },
    views: {
      reducer: VIEW_REDUCER,
      rules_version: VIEW_RULES_VERSION,
      document: 'docs/views.md',
      content_type_to_object_type: { ...OBJECT_TYPE_OF_CONTENT, correction: `type of the superseded memory's object, else ${DEFAULT_CORRECTION_TYPE}` },
      attachment_schema_version: ATTACHMENT_SCHEMA_VERSION,
      reducers_file: REDUCERS_FILE,
      reduction_schema_version: REDUCTION_SCHEMA_VERSION,
      latest_line_wins: 'a view line replaces the earlier lines with the same id in the same file'
    }
  }
}
