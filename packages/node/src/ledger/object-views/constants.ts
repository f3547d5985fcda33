import type { ContentType, ViewObjectType, Visibility } from '../../schema/index.js'

/**
 * The view reducer's rules (Memory Format Spec V3.1 §6, docs/views.md). Every constant here changes what
 * a view object looks like, so `VIEW_RULES_VERSION` goes up with any change and `_meta/policy.json`
 * records it: a reader can tell which rules produced a shard.
 */

/** The reducer's name in `coordination/reducers.jsonl` and in `memory.reduced` payloads. */
export const VIEW_REDUCER = 'isnad-views/v1'

/** Bumped whenever a mapping, horizon, salience, status or id rule below changes. */
export const VIEW_RULES_VERSION = 1

/**
 * `schema_version` of the lines this code writes to `views/attach/` (isnad's addition; the spec names
 * the folder only): the compact form, evidence keyed by record CID (docs/views.md).
 */
export const ATTACHMENT_SCHEMA_VERSION = 'isnad-attach-v2'

/** `schema_version` of the attachment lines written before the compact form: read (and verified) forever. */
export const ATTACHMENT_V1_SCHEMA_VERSION = 'isnad-attach-v1'

/**
 * `schema_version` of the lines this code writes to `coordination/reducers.jsonl`: the round form,
 * one line per reduction round naming each new state by its reduction id (docs/views.md).
 */
export const REDUCTION_SCHEMA_VERSION = 'isnad-reduction-v3'

/** `schema_version` of the per-state compact lines written before the round form: read (and verified) forever. */
export const REDUCTION_V2_SCHEMA_VERSION = 'isnad-reduction-v2'

/** `schema_version` of the reducer lines written before the compact form: read (and verified) forever. */
export const REDUCTION_V1_SCHEMA_VERSION = 'isnad-reduction-v1'

/**
 * @default 1024 — reductions one `memory.reduced` event, or one round line of reducers.jsonl, names
 * at most (about 31 kB of ids, 66 kB of entries): a round with more is recorded by several of each,
 * each well under the ledger's line limits.
 */
export const MAX_REDUCTIONS_PER_EVENT = 1024

/**
 * Content type → view object type. `correction` is absent on purpose: a correction takes the type of
 * the object it corrects (spec §9), which only the caller knows; without it, `fact`.
 */
export const OBJECT_TYPE_OF_CONTENT: Readonly<Record<Exclude<ContentType, 'correction'>, ViewObjectType>> = {
  fact: 'fact',
  observation: 'fact',
  insight: 'fact',
  encounter: 'fact',
  decision: 'decision',
  commitment: 'commitment'
}

/** A correction whose superseded object is unknown is read as a corrected fact. */
export const DEFAULT_CORRECTION_TYPE: ViewObjectType = 'fact'

export type Horizon = 'short' | 'medium' | 'long'

/**
 * How long a memory stays relevant, by content type: an observation is a pattern noticed now (short),
 * an insight or a decision shapes later work (long), an encounter or a fact sits between, and a
 * commitment lasts until it is due (short). A correction takes HORIZON_OF_OBJECT_TYPE of its type.
 */
export const HORIZON_OF_CONTENT: Readonly<Record<Exclude<ContentType, 'correction'>, Horizon>> = {
  observation: 'short',
  commitment: 'short',
  encounter: 'medium',
  fact: 'medium',
  insight: 'long',
  decision: 'long'
}

export const HORIZON_OF_OBJECT_TYPE: Readonly<Record<ViewObjectType, Horizon>> = {
  fact: 'medium',
  decision: 'long',
  commitment: 'short'
}

/** The tag prefixes the reducer reads (tags have no whitespace: record-v1 R3). */
export const TAG_PREFIXES = {
  decisionKey: 'key:',
  due: 'due:',
  project: 'project:',
  assumption: 'assume:'
} as const

/**
 * Facts get `review_at` = creation date + this many days.
 * @default 90
 */
export const DEFAULT_FACT_REVIEW_DAYS = 90

/**
 * An object whose trust counted at least one dispute and scored below this is `disputed`; 0.3 is the
 * lower bound of the provenance schema's "Attested" level.
 * @default 0.3
 */
export const DEFAULT_DISPUTED_BELOW = 0.3

/**
 * Signed memories are gossiped to peers, so their views are `shared` unless the caller says otherwise.
 * @default 'shared'
 */
export const DEFAULT_VIEW_VISIBILITY: Visibility = 'shared'

/** Longest `decision_key` slug taken from a summary. */
export const MAX_DECISION_KEY_LENGTH = 64

/** The plural folder of each object type under `views/` (spec §3). */
export const VIEW_FOLDER_OF_TYPE: Readonly<Record<ViewObjectType, string>> = {
  fact: 'facts',
  decision: 'decisions',
  commitment: 'commitments'
}
export const ATTACH_FOLDER = 'attach'
export const VIEWS_DIR = 'views'
export const REDUCERS_FILE = 'coordination/reducers.jsonl'
