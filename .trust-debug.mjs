// src/sim/builtin.ts
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// src/sim/scenario.ts
import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { z as z20 } from "zod";

// src/errors/index.ts
var IsnadError = class extends Error {
  name = "IsnadError";
  code;
  details;
  constructor(code2, message, options = {}) {
    super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.code = code2;
    this.details = options.details;
  }
  toJSON() {
    return this.details === void 0 ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
};

// src/net/index.ts
import { generateKeyPair as generateKeyPair2 } from "@libp2p/crypto/keys";

// src/identity/did-key.ts
import { base58btc } from "multiformats/bases/base58";
import { varint } from "multiformats";

// src/schema/limits.ts
var MAX_RECORD_BYTES = 128 * 1024;
var MAX_BODY_BYTES = 64 * 1024;
var MAX_SUMMARY_BYTES = 512;
var MAX_TAGS = 32;
var MAX_TAG_BYTES = 64;
var MAX_NOTES_BYTES = 4096;
var MAX_CLAIMS = 32;
var MAX_CLAIM_BYTES = 512;
var MAX_CONTEXT_FIELD_BYTES = 1024;
var MAX_DERIVED_FROM = 64;
var MAX_REQUEST_WITNESSES = 64;
var MAX_REFERENCE_BYTES = 2048;
var MAX_HASH_BYTES = 256;
var MAX_DID_BYTES = 128;
var MAX_CLOCK_SKEW_MS = 15 * 60 * 1e3;
var MAX_BUNDLE_BYTES = 8 * 1024 * 1024;
var MAX_BUNDLE_RECORDS = 4096;

// src/schema/primitives.ts
import { CID } from "multiformats/cid";
import { z } from "zod";
function utf8Length(value) {
  let bytes2 = value.length;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 128) continue;
    if (unit < 2048) {
      bytes2 += 1;
    } else if (unit >= 55296 && unit <= 56319 && isLowSurrogate(value.charCodeAt(i + 1))) {
      bytes2 += 2;
      i++;
    } else {
      bytes2 += 2;
    }
  }
  return bytes2;
}
function isLowSurrogate(unit) {
  return unit >= 56320 && unit <= 57343;
}
var TOO_LARGE = { isnad: "FIELD_TOO_LARGE" };
function hasForbiddenText(value, allowNewlines) {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 32) {
      if (!allowNewlines || unit !== 9 && unit !== 10 && unit !== 13) return true;
    } else if (unit === 127) {
      return true;
    } else if (unit >= 55296 && unit <= 57343) {
      if (unit > 56319 || !isLowSurrogate(value.charCodeAt(i + 1))) return true;
      i++;
    }
  }
  return false;
}
function boundedText(maxBytes, { allowNewlines = false, min = 0 } = {}) {
  return z.string().min(min).refine((s) => s.length * 3 <= maxBytes || utf8Length(s) <= maxBytes, {
    message: `longer than ${maxBytes} UTF-8 bytes`,
    params: TOO_LARGE
  }).refine((s) => !hasForbiddenText(s, allowNewlines), {
    message: allowNewlines ? "contains control characters or lone surrogates" : "contains control characters, line breaks or lone surrogates"
  }).meta({
    maxLength: maxBytes,
    description: `At most ${maxBytes} UTF-8 bytes; no control characters${allowNewlines ? " other than tab, LF and CR" : ""}; no lone surrogates.`
  });
}
var TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{3})?Z$/;
function isCalendarInstant(value) {
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(digitsAt(value, 0, 4), month) && digitsAt(value, 11, 2) <= 23 && digitsAt(value, 14, 2) <= 59 && digitsAt(value, 17, 2) <= 59;
}
function digitsAt(value, at, count3) {
  let n = 0;
  for (let i = at; i < at + count3; i++) n = n * 10 + value.charCodeAt(i) - 48;
  return n;
}
function daysInMonth(year, month) {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
var TIMESTAMP_MESSAGE = "must be a UTC ISO-8601 timestamp like 2026-02-05T16:00:00Z";
var isoTimestamp = z.string().regex(TIMESTAMP_PATTERN, { message: TIMESTAMP_MESSAGE, abort: true }).refine(isCalendarInstant, { message: TIMESTAMP_MESSAGE });
var didKey = z.string().max(128).regex(/^did:key:z[1-9A-HJ-NP-Za-km-z]+$/, "must be a did:key (base58btc multibase)");
function isCanonicalCidV1(value, codec) {
  try {
    const cid = CID.parse(value);
    return cid.version === 1 && CID.decode(cid.bytes).toString() === value && (codec === void 0 || cid.code === codec);
  } catch {
    return false;
  }
}
var RECORD_CID_PATTERN = /^bafyrei[a-h][a-z2-7]{50}[aeimquy4]$/;
var recordCid = z.string().regex(RECORD_CID_PATTERN, "must be a canonical CIDv1 (dag-cbor, sha2-256) string");
var anyCid = z.string().max(128).refine((value) => isCanonicalCidV1(value), {
  message: "must be a canonical CIDv1 string"
});
var signatureBase64 = z.string().regex(/^[A-Za-z0-9+/]{86}$/, "must be 86 characters of unpadded base64 (64 bytes)");

// src/schema/records.ts
import { z as z2 } from "zod";
var CONTENT_TYPES = ["insight", "encounter", "decision", "correction", "observation", "fact", "commitment"];
var ATTESTATION_VERDICTS = ["confirm", "dispute", "partial"];
var ANCHOR_TYPES = ["cid", "git_commit", "url", "moltbook_post", "blockchain"];
var RECORD_KINDS = ["memory", "attestation", "anchor", "witness_request"];
var tag = boundedText(MAX_TAG_BYTES, { min: 1 }).regex(/^\S+$/u, "must not contain whitespace");
var tagList = uniqueList(z2.array(tag).max(MAX_TAGS), "tags must be unique");
function uniqueList(list, message) {
  return list.refine((items) => new Set(items).size === items.length, { message }).meta({ uniqueItems: true });
}
var MemoryContentSchema = z2.strictObject({
  type: z2.enum(CONTENT_TYPES),
  // record-v1 R4
  summary: boundedText(MAX_SUMMARY_BYTES, { min: 1 }),
  body: boundedText(MAX_BODY_BYTES, { allowNewlines: true }),
  tags: tagList
});
var MemoryAuthorSchema = z2.strictObject({
  agent_id: didKey,
  platform: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1 }).optional(),
  handle: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1 }).optional()
});
var MemoryContextSchema = z2.strictObject({
  session_id: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1 }).optional(),
  trigger: boundedText(MAX_CONTEXT_FIELD_BYTES, { min: 1, allowNewlines: true }).optional(),
  confidence: z2.number().min(0).max(1)
  // record-v1 R4: finite (zod refuses NaN and ±Infinity)
});
var MemoryLineageSchema = z2.strictObject({
  supersedes: recordCid.optional(),
  // record-v1 R15
  derived_from: uniqueList(z2.array(recordCid).max(MAX_DERIVED_FROM), "derived_from entries must be unique")
});
var MemoryRecordSchema = z2.strictObject({
  kind: z2.literal("memory"),
  version: z2.literal(1),
  content: MemoryContentSchema,
  author: MemoryAuthorSchema,
  created_at: isoTimestamp,
  context: MemoryContextSchema,
  lineage: MemoryLineageSchema
});
var AttestationRecordSchema = z2.strictObject({
  kind: z2.literal("attestation"),
  version: z2.literal(1),
  memory: recordCid,
  witness: didKey,
  attestation: z2.enum(ATTESTATION_VERDICTS),
  witnessed_at: isoTimestamp,
  notes: boundedText(MAX_NOTES_BYTES, { allowNewlines: true }).optional(),
  /** For `partial`: which aspects the witness confirms (record-v1 R12). */
  claims: z2.array(boundedText(MAX_CLAIM_BYTES, { min: 1 })).min(1).max(MAX_CLAIMS).optional()
  // record-v1 R12
}).refine((a) => a.claims === void 0 || a.attestation === "partial", {
  message: "claims are only allowed on a partial attestation",
  path: ["claims"]
});
var AnchorRecordSchema = z2.strictObject({
  kind: z2.literal("anchor"),
  version: z2.literal(1),
  memory: recordCid,
  type: z2.enum(ANCHOR_TYPES),
  reference: boundedText(MAX_REFERENCE_BYTES, { min: 1 }),
  /** `<algorithm>:<lower-case hex digest>` of the anchored content, e.g. `sha2-256:9f86…`. */
  hash: boundedText(MAX_HASH_BYTES).regex(/^[a-z0-9-]+:[0-9a-f]+$/, "must look like sha2-256:<hex>"),
  // record-v1 R13
  created_at: isoTimestamp,
  anchored_by: didKey
  // record-v1 R13
}).refine((a) => a.type !== "cid" || anyCid.safeParse(a.reference).success, {
  message: "a cid anchor must reference a canonical CIDv1",
  path: ["reference"]
});
var WitnessRequestRecordSchema = z2.strictObject({
  kind: z2.literal("witness_request"),
  version: z2.literal(1),
  memory: recordCid,
  requester: didKey,
  /** Addressed witnesses, each once (record-v1 R14); absent: open to anyone. */
  witnesses: uniqueList(z2.array(didKey).min(1).max(MAX_REQUEST_WITNESSES), "witnesses must be unique").optional(),
  created_at: isoTimestamp,
  expires_at: isoTimestamp.optional()
  // record-v1 R14: compared as instants, not strings ('…00.500Z' sorts before '…00Z').
}).refine((r) => r.expires_at === void 0 || Date.parse(r.expires_at) > Date.parse(r.created_at), {
  message: "expires_at must be after created_at",
  path: ["expires_at"]
});
var RecordSchema = z2.discriminatedUnion("kind", [
  MemoryRecordSchema,
  AttestationRecordSchema,
  AnchorRecordSchema,
  WitnessRequestRecordSchema
]);
var SignedRecordSchema = z2.strictObject({
  record: RecordSchema,
  signature: signatureBase64
});
var SCHEMAS_BY_KIND = {
  memory: MemoryRecordSchema,
  attestation: AttestationRecordSchema,
  anchor: AnchorRecordSchema,
  witness_request: WitnessRequestRecordSchema
};

// src/schema/view.ts
import { z as z3 } from "zod";
var ANCHOR_STATES = ["verified", "mismatch", "unreachable", "unverifiable", "unchecked"];
var AnchorVerificationSchema = z3.strictObject({
  state: z3.enum(ANCHOR_STATES),
  reason: z3.string().max(1024).optional(),
  checked_at: isoTimestamp.optional()
});
var WitnessViewSchema = z3.strictObject({
  id: recordCid,
  agent_id: didKey,
  witnessed_at: isoTimestamp,
  attestation: z3.enum(ATTESTATION_VERDICTS),
  signature: signatureBase64,
  notes: z3.string().optional(),
  claims: z3.array(z3.string()).optional()
});
var AnchorViewSchema = z3.strictObject({
  id: recordCid,
  type: AnchorRecordSchema.shape.type,
  reference: z3.string(),
  created_at: isoTimestamp,
  hash: z3.string(),
  anchored_by: didKey,
  signature: signatureBase64,
  verification: AnchorVerificationSchema
});
var MemoryViewSchema = z3.strictObject({
  id: recordCid,
  version: z3.literal(1),
  content: MemoryContentSchema,
  provenance: z3.strictObject({
    author: z3.strictObject({
      agent_id: didKey,
      platform: z3.string().optional(),
      handle: z3.string().optional(),
      signature: signatureBase64
    }),
    created_at: isoTimestamp,
    context: MemoryContextSchema
  }),
  witnesses: z3.array(WitnessViewSchema),
  anchors: z3.array(AnchorViewSchema),
  lineage: z3.strictObject({
    supersedes: recordCid.nullable(),
    superseded_by: recordCid.nullable(),
    derived_from: z3.array(recordCid),
    chain_depth: z3.number().int().min(0)
  }),
  /** Computed locally by the node that printed the view; a verifier recomputes it. */
  trust: z3.unknown()
});
var BUNDLE_FORMAT = "isnad-bundle/v1";
var BundleSchema = z3.strictObject({
  format: z3.literal(BUNDLE_FORMAT),
  exported_at: isoTimestamp,
  records: z3.array(SignedRecordSchema).max(MAX_BUNDLE_RECORDS)
});

// src/schema/trust.ts
import { z as z4 } from "zod";
var TRUST_LEVELS = ["Unverified", "Attested", "Anchored", "Consensus"];
var TRUST_POLICY_NAMES = ["isnad-v0.1", "isnad-reputation"];
var TRUST_CONTRIBUTION_FACTORS = ["author_signature", "confirms", "anchors", "author_reputation", "disputes"];
var ATTESTATION_REFUSAL_CODES = [
  "SIGNATURE_INVALID",
  "WRONG_MEMORY",
  "SELF_ATTESTATION",
  "TIMESTAMP_IN_FUTURE",
  "BEFORE_MEMORY",
  "SUPERSEDED_BY_NEWER",
  "DUPLICATE_ATTESTATION",
  "KEY_NOT_VALID"
];
var ANCHOR_REFUSAL_CODES = [
  "SIGNATURE_INVALID",
  "WRONG_MEMORY",
  "TIMESTAMP_IN_FUTURE",
  "ANCHOR_NOT_VERIFIED",
  "DUPLICATE_ANCHOR"
];
var TRUST_SCORE_DECIMALS = 4;
var SCALE = 10 ** TRUST_SCORE_DECIMALS;
function roundTrustScore(value) {
  return Math.round(value * SCALE) / SCALE + 0;
}
var points = z4.number().finite();
var count = z4.number().int().min(0);
var TrustFactorsSchema = z4.strictObject({
  // The provenance schema's names (its "trust.factors" block) ...
  author_reputation: z4.number().min(0).max(1),
  witness_count: count,
  anchor_count: count,
  age_days: count,
  dispute_count: count,
  // ... and what the explanation adds.
  confirm_count: count,
  partial_count: count,
  signature_valid: z4.boolean()
});
var TrustContributionSchema = z4.strictObject({
  factor: z4.enum(TRUST_CONTRIBUTION_FACTORS),
  points,
  reason: z4.string().min(1)
});
var CountedAttestationSchema = z4.strictObject({
  id: recordCid,
  witness: didKey,
  verdict: z4.enum(ATTESTATION_VERDICTS),
  witnessed_at: isoTimestamp,
  /** What this attestation alone adds, when the policy can say (confirms count as a group). */
  points: points.optional(),
  note: z4.string().optional()
});
var CountedAnchorSchema = z4.strictObject({
  id: recordCid,
  type: z4.enum(ANCHOR_TYPES),
  reference: z4.string()
});
var RefusedAttestationSchema = z4.strictObject({
  id: recordCid,
  witness: didKey,
  code: z4.enum(ATTESTATION_REFUSAL_CODES),
  reason: z4.string().min(1),
  /** For SUPERSEDED_BY_NEWER and DUPLICATE_ATTESTATION: the attestation that counts instead. */
  superseded_by: recordCid.optional()
});
var RefusedAnchorSchema = z4.strictObject({
  id: recordCid,
  code: z4.enum(ANCHOR_REFUSAL_CODES),
  reason: z4.string().min(1),
  /** For ANCHOR_NOT_VERIFIED: the anchor's verification state. */
  state: z4.enum(ANCHOR_STATES).optional(),
  /** For DUPLICATE_ANCHOR: the anchor that counts instead. */
  duplicate_of: recordCid.optional()
});
var TRUST_LEVEL_RULES = ["score", "evidence", "both", "insufficient"];
var TrustLevelBasisSchema = z4.strictObject({
  score_level: z4.enum(TRUST_LEVELS),
  evidence_level: z4.enum(TRUST_LEVELS),
  set_by: z4.enum(TRUST_LEVEL_RULES),
  reason: z4.string().min(1)
});
var INSUFFICIENT_TRUST_CODES = ["NO_ROOTS", "NO_PATH"];
var InsufficientTrustSchema = z4.strictObject({
  code: z4.enum(INSUFFICIENT_TRUST_CODES),
  reason: z4.string().min(1)
});
var TrustResultSchema = z4.strictObject({
  score: z4.number().min(0).max(1),
  level: z4.enum(TRUST_LEVELS),
  policy: z4.enum(TRUST_POLICY_NAMES),
  computed_at: isoTimestamp,
  factors: TrustFactorsSchema,
  /** Rounded to 4 decimals, the points sum to the unclamped score. */
  contributions: z4.array(TrustContributionSchema),
  counted: z4.strictObject({
    attestations: z4.array(CountedAttestationSchema),
    anchors: z4.array(CountedAnchorSchema)
  }),
  refused: z4.strictObject({
    attestations: z4.array(RefusedAttestationSchema),
    anchors: z4.array(RefusedAnchorSchema)
  }),
  /** Present (true) when the sum fell outside [0, 1]; `unclamped_score` is that sum. */
  clamped: z4.boolean().optional(),
  unclamped_score: z4.number().optional(),
  /** Which rule set `level` (absent only in results written before issue 18). */
  level_basis: TrustLevelBasisSchema.optional(),
  /** Present when the node has too little to judge: `level` is then Unverified whatever the score. */
  insufficient: InsufficientTrustSchema.optional()
}).superRefine((result, ctx) => {
  const basis = result.level_basis;
  if (basis !== void 0) {
    const lower = TRUST_LEVELS.indexOf(basis.score_level) <= TRUST_LEVELS.indexOf(basis.evidence_level) ? basis.score_level : basis.evidence_level;
    const expected = result.insufficient === void 0 ? lower : "Unverified";
    if (result.level !== expected) {
      ctx.addIssue({ code: "custom", path: ["level"], message: `level ${result.level} is not ${expected}, what level_basis gives` });
    }
  }
  const sum = roundTrustScore(result.contributions.reduce((total, c) => total + c.points, 0));
  const unclamped = result.unclamped_score ?? result.score;
  if (sum !== unclamped) {
    ctx.addIssue({ code: "custom", path: ["contributions"], message: `contributions sum to ${sum}, not ${unclamped}` });
  }
  if (result.clamped === true !== (result.unclamped_score !== void 0)) {
    ctx.addIssue({ code: "custom", path: ["clamped"], message: "clamped and unclamped_score go together" });
  }
});

// src/schema/json-schema.ts
import { z as z5 } from "zod";

// src/schema/ledger.ts
import { z as z6 } from "zod";
var EVENT_SCHEMA_VERSION = "diasync-v1-event";
var OBJECT_SCHEMA_VERSION = "diasync-v1-object";
var ID_PREFIXES = {
  event: "evt",
  run: "run",
  instance: "ins",
  fact: "fac",
  decision: "dec",
  commitment: "com",
  attachment: "att",
  finding: "fnd",
  scorecard: "hsc",
  plan: "pln",
  execution: "exe",
  lease: "lse",
  conflict: "cfl",
  reduction: "red",
  cursor: "cur"
};
function typedId(prefix) {
  return z6.string().regex(new RegExp(`^${prefix}_[a-z2-7]{26}$`), `must be a ${prefix}_ id`);
}
var EVENT_TYPES = [
  "memory.instance.started",
  "memory.instance.heartbeat",
  "memory.instance.stopped",
  "memory.captured",
  "memory.distilled",
  "memory.published",
  "memory.reduced",
  "memory.reconciled",
  "memory.checkpointed",
  "memory.handoff",
  "memory.witness_requested",
  "memory.attested",
  "memory.anchored",
  /** A check of an anchor's evidence (protocols/anchors-v1.md §6). */
  "memory.anchor_checked",
  /** A memory selection's trace (FDR-Memory v1.2.0 M-2: every selection is auditable). */
  "memory.selected"
];
var VISIBILITIES = ["private", "shared", "public"];
var lineHash = z6.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 hex digits>");
var scopeName = z6.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "must be 1\u201364 of a-z 0-9 . _ - starting with a letter or digit");
var actorName = z6.string().min(1).max(128);
var EventSchema = z6.strictObject({
  schema_version: z6.literal(EVENT_SCHEMA_VERSION),
  event_id: typedId(ID_PREFIXES.event),
  type: z6.enum(EVENT_TYPES),
  scope: scopeName,
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  actor: actorName,
  ts_wall: isoTimestamp,
  /** Lamport clock (spec §5): strictly increasing along one instance's stream. */
  lc: z6.number().int().min(1),
  /** event_ids this event depends on. */
  causal_refs: z6.array(typedId(ID_PREFIXES.event)).max(64),
  visibility: z6.enum(VISIBILITIES),
  owner: actorName,
  payload: z6.record(z6.string(), z6.unknown()),
  /** Deterministic from the logical event: the same key is stored once (spec §8). */
  idempotency_key: z6.string().min(1).max(512),
  hash: lineHash
});
var VIEW_OBJECT_TYPES = ["fact", "decision", "commitment"];
var calendarDate = z6.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD");
var viewObjectId = z6.string().regex(/^(fac|dec|com)_[a-z2-7]{26}$/, "must be a fac_, dec_ or com_ id");
var ViewObjectSchema = z6.strictObject({
  schema_version: z6.literal(OBJECT_SCHEMA_VERSION),
  id: viewObjectId,
  type: z6.enum(VIEW_OBJECT_TYPES),
  scope: scopeName,
  ts: isoTimestamp,
  summary: z6.string().min(1),
  status: z6.enum(["active", "superseded", "disputed", "done", "cancelled"]),
  horizon: z6.enum(["short", "medium", "long"]),
  salience: z6.number().min(0).max(1),
  confidence: z6.number().min(0).max(1),
  tags: z6.array(z6.string()),
  event_refs: z6.array(typedId(ID_PREFIXES.event)).min(1),
  visibility: z6.enum(VISIBILITIES),
  owner: actorName,
  hash: lineHash,
  // optional fields (spec §6)
  project: z6.string().optional(),
  /** The memory CID this object was reduced from. */
  source: recordCid.optional(),
  review_at: calendarDate.optional(),
  due_at: calendarDate.optional(),
  /** An attachment id in views/attach/ holding the anchors and evidence references. */
  evidence_ref: typedId(ID_PREFIXES.attachment).optional(),
  /** The object id this one corrects (spec §9: corrections are new records). */
  supersedes: viewObjectId.optional(),
  decision_key: z6.string().optional(),
  why: z6.string().optional(),
  assumptions: z6.array(z6.string()).optional()
});

// src/schema/sort.ts
function sortInPlace(items, compare, insertionMax = 16) {
  if (items.length > insertionMax) return items.sort(compare);
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    let j2 = i - 1;
    while (j2 >= 0 && compare(items[j2], item) > 0) {
      items[j2 + 1] = items[j2];
      j2--;
    }
    items[j2 + 1] = item;
  }
  return items;
}

// src/identity/did-key.ts
var ED25519_PUB_CODEC = 237;
var ED25519_PUBLIC_KEY_BYTES = 32;
var DID_KEY_PREFIX = "did:key:";
var CODEC_PREFIX = varint.encodeTo(ED25519_PUB_CODEC, new Uint8Array(varint.encodingLength(ED25519_PUB_CODEC)));
function encodeDidKey(publicKey) {
  if (publicKey.length !== ED25519_PUBLIC_KEY_BYTES) {
    throw new IsnadError("KEY_INVALID", `an Ed25519 public key has 32 bytes, got ${publicKey.length}`);
  }
  const bytes2 = new Uint8Array(CODEC_PREFIX.length + publicKey.length);
  bytes2.set(CODEC_PREFIX, 0);
  bytes2.set(publicKey, CODEC_PREFIX.length);
  return DID_KEY_PREFIX + base58btc.encode(bytes2);
}
function decodeDidKey(did) {
  if (typeof did !== "string" || did.length > MAX_DID_BYTES || !did.startsWith(DID_KEY_PREFIX + "z")) {
    throw new IsnadError("DID_INVALID", "not an Ed25519 did:key", { details: { did: String(did).slice(0, MAX_DID_BYTES) } });
  }
  let bytes2;
  try {
    bytes2 = base58btc.decode(did.slice(DID_KEY_PREFIX.length));
  } catch (cause) {
    throw new IsnadError("DID_INVALID", "did:key is not valid base58btc", { details: { did }, cause });
  }
  if (bytes2.length !== CODEC_PREFIX.length + ED25519_PUBLIC_KEY_BYTES || !CODEC_PREFIX.every((b, i) => bytes2[i] === b)) {
    throw new IsnadError("DID_INVALID", "did:key does not hold an Ed25519 public key (multicodec 0xed, 32 bytes)", { details: { did } });
  }
  const publicKey = bytes2.slice(CODEC_PREFIX.length);
  if (encodeDidKey(publicKey) !== did) {
    throw new IsnadError("DID_INVALID", "did:key is not in canonical form", { details: { did } });
  }
  return publicKey;
}

// src/identity/ed25519.ts
import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
ed.hashes.sha512 = sha512;
var ED25519_SIGNATURE_BYTES = 64;
var GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;
var GROUP_ORDER_LE = Uint8Array.of(
  237,
  211,
  245,
  92,
  26,
  99,
  18,
  88,
  214,
  156,
  247,
  162,
  222,
  249,
  222,
  20,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  16
);
function assertSignatureShape(signature, publicKey) {
  if (!(signature instanceof Uint8Array) || signature.length !== ED25519_SIGNATURE_BYTES) {
    throw new IsnadError("SIGNATURE_MALFORMED", `an Ed25519 signature has 64 bytes, got ${signature?.length}`);
  }
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_BYTES) {
    throw new IsnadError("KEY_INVALID", `an Ed25519 public key has 32 bytes, got ${publicKey?.length}`);
  }
}
function hasCanonicalScalar(signature) {
  for (let i = 31; i >= 0; i--) {
    const s = signature[32 + i] ?? 0;
    const l = GROUP_ORDER_LE[i] ?? 0;
    if (s !== l) return s < l;
  }
  return false;
}
function publicKeyCacheKey(publicKey) {
  return String.fromCharCode.apply(null, publicKey);
}
function decodeAcceptablePublicKey(publicKey) {
  try {
    const point = ed.Point.fromBytes(publicKey, false);
    return !point.isSmallOrder() && point.isTorsionFree() ? point : void 0;
  } catch {
    return void 0;
  }
}
var HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

// src/identity/node-verifier.ts
import { createPublicKey, verify as opensslVerify2 } from "node:crypto";

// src/identity/sodium.ts
import { createRequire } from "node:module";
var require2 = createRequire(import.meta.url);
function load() {
  try {
    const path2 = require2.resolve("sodium-native");
    const sodium = require2(path2);
    if (typeof sodium.crypto_sign_verify_detached !== "function") return void 0;
    return { path: path2, sodium };
  } catch {
    return void 0;
  }
}
var loaded = load();
var sodiumModulePath = loaded?.path;
function sodiumVerify(signature, message, publicKey) {
  return loaded?.sodium.crypto_sign_verify_detached(signature, message, publicKey);
}

// src/identity/verify-threads.ts
import { verify as opensslVerify } from "node:crypto";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
var MAX_VERIFY_THREADS = 4;
var VERIFY_THREADS_MIN_BURST = 16;
var VERIFY_THREAD_CHUNK = 16;
var HEADER_BYTES = 4;
var SIGNATURE_BYTES = 64;
var PUBLIC_KEY_BYTES = 32;
var FIXED_BYTES = HEADER_BYTES + SIGNATURE_BYTES + PUBLIC_KEY_BYTES;
var CHUNK_BYTES = VERIFY_THREAD_CHUNK * (FIXED_BYTES + 156);
function newChunk(room) {
  return { packed: new Uint8Array(Math.max(CHUNK_BYTES, room)), used: 0, checks: [] };
}
var THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { createPublicKey, verify } = require('node:crypto')
let sodium
try {
  if (workerData.sodiumPath !== undefined) sodium = require(workerData.sodiumPath)
} catch {}
parentPort.postMessage({ backend: sodium === undefined ? 'openssl' : 'libsodium' })
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')
const KEY_CACHE_SIZE = 4096
const keys = new Map()
parentPort.on('message', ({ id, packed, count }) => {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength)
  const verdicts = new Uint8Array(count)
  let at = 0
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(at, true)
    const signature = packed.subarray(at + ${HEADER_BYTES}, at + ${HEADER_BYTES + SIGNATURE_BYTES})
    const publicKey = packed.subarray(at + ${HEADER_BYTES + SIGNATURE_BYTES}, at + ${FIXED_BYTES})
    const message = packed.subarray(at + ${FIXED_BYTES}, at + ${FIXED_BYTES} + length)
    at += ${FIXED_BYTES} + length
    if (sodium !== undefined && sodium.crypto_sign_verify_detached(signature, message, publicKey)) {
      verdicts[i] = 1
      continue
    }
    const cacheKey = String.fromCharCode.apply(null, publicKey)
    let key = keys.get(cacheKey)
    if (key === undefined) {
      key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' })
      if (keys.size >= KEY_CACHE_SIZE) keys.clear()
      keys.set(cacheKey, key)
    }
    try {
      verdicts[i] = verify(null, message, key, signature) ? 1 : 0
    } catch {
      verdicts[i] = 0
    }
  }
  parentPort.postMessage({ id, verdicts }, [verdicts.buffer])
})
`;
var threads = null;
var chunks = [];
var flushScheduled = false;
var nextRequest = 0;
var threadBackends = [];
function checkSoon(signature, message, publicKey, key, resolve) {
  const size = FIXED_BYTES + message.length;
  let chunk = chunks[chunks.length - 1];
  if (chunk === void 0 || chunk.checks.length >= VERIFY_THREAD_CHUNK || chunk.used + size > chunk.packed.length) {
    chunk = newChunk(size);
    chunks.push(chunk);
  }
  const { packed, used: at } = chunk;
  const length = message.length;
  packed[at] = length & 255;
  packed[at + 1] = length >>> 8 & 255;
  packed[at + 2] = length >>> 16 & 255;
  packed[at + 3] = length >>> 24;
  packed.set(signature, at + HEADER_BYTES);
  packed.set(publicKey, at + HEADER_BYTES + SIGNATURE_BYTES);
  packed.set(message, at + FIXED_BYTES);
  chunk.used += size;
  chunk.checks.push({ key, resolve });
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(flush);
}
function flush() {
  flushScheduled = false;
  const ready = chunks;
  chunks = [];
  if (threads === null && ready.reduce((n, chunk) => n + chunk.checks.length, 0) >= VERIFY_THREADS_MIN_BURST) threads = startThreads();
  for (const chunk of ready) {
    if (Array.isArray(threads)) send(threads, chunk);
    else checkOnLibuv(chunk);
  }
}
function checkOnLibuv({ packed, checks }) {
  const view = new DataView(packed.buffer, packed.byteOffset);
  let at = 0;
  for (const { key, resolve } of checks) {
    const length = view.getUint32(at, true);
    const signature = packed.subarray(at + HEADER_BYTES, at + HEADER_BYTES + SIGNATURE_BYTES);
    const message = packed.subarray(at + FIXED_BYTES, at + FIXED_BYTES + length);
    at += FIXED_BYTES + length;
    try {
      opensslVerify(null, message, key, signature, (err, valid) => {
        resolve(err === null && valid);
      });
    } catch {
      resolve(false);
    }
  }
}
function startThreads() {
  const started = [];
  try {
    for (let i = 0; i < Math.min(MAX_VERIFY_THREADS, availableParallelism()); i++) {
      const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { sodiumPath: sodiumModulePath } });
      const thread = { worker, inFlight: /* @__PURE__ */ new Map(), load: 0 };
      worker.on("message", (reply) => {
        if ("backend" in reply) threadBackends.push(reply.backend);
        else settle(thread, reply);
      });
      worker.on("error", () => {
        fail(started);
      });
      worker.on("exit", () => {
        fail(started);
      });
      worker.unref();
      started.push(thread);
    }
  } catch {
    fail(started);
    return "failed";
  }
  return started;
}
function send(all, chunk) {
  let thread = all[0];
  for (const other of all) if (other.load < thread.load) thread = other;
  const id = nextRequest++;
  thread.inFlight.set(id, chunk);
  thread.load += chunk.checks.length;
  thread.worker.ref();
  thread.worker.postMessage({ id, packed: chunk.packed.subarray(0, chunk.used), count: chunk.checks.length });
}
function settle(thread, { id, verdicts }) {
  const chunk = thread.inFlight.get(id);
  if (chunk === void 0) return;
  thread.inFlight.delete(id);
  thread.load -= chunk.checks.length;
  if (thread.inFlight.size === 0) thread.worker.unref();
  chunk.checks.forEach(({ resolve }, i) => {
    resolve(verdicts[i] === 1);
  });
}
function fail(started) {
  if (threads === "failed") return;
  threads = "failed";
  threadBackends.length = 0;
  for (const thread of started) {
    const pending = [...thread.inFlight.values()];
    thread.inFlight.clear();
    thread.load = 0;
    thread.worker.removeAllListeners();
    thread.worker.on("error", () => {
    });
    void thread.worker.terminate();
    for (const chunk of pending) checkOnLibuv(chunk);
  }
}

// src/identity/node-verifier.ts
var SPKI_ED25519_PREFIX = Uint8Array.from([48, 42, 48, 5, 6, 3, 43, 101, 112, 3, 33, 0]);
var KEY_OBJECT_CACHE_SIZE = 4096;
var keyObjects = /* @__PURE__ */ new Map();
function acceptedKeyObject(publicKey) {
  const cacheKey = publicKeyCacheKey(publicKey);
  let key = keyObjects.get(cacheKey);
  if (key === void 0) {
    key = decodeAcceptablePublicKey(publicKey) === void 0 ? null : createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: "der", type: "spki" });
    if (keyObjects.size >= KEY_OBJECT_CACHE_SIZE) keyObjects.clear();
    keyObjects.set(cacheKey, key);
  }
  return key;
}
function keyForOpenssl(signature, publicKey) {
  assertSignatureShape(signature, publicKey);
  if (!hasCanonicalScalar(signature)) return null;
  return acceptedKeyObject(publicKey);
}
var nodeCryptoVerifier = {
  name: "node:crypto",
  verify(signature, message, publicKey) {
    const key = keyForOpenssl(signature, publicKey);
    if (key === null) return false;
    if (sodiumVerify(signature, message, publicKey) === true) return true;
    try {
      return opensslVerify2(null, message, key, signature);
    } catch {
      return false;
    }
  },
  verifyAsync(signature, message, publicKey) {
    return new Promise((resolve) => {
      const key = keyForOpenssl(signature, publicKey);
      if (key === null) {
        resolve(false);
        return;
      }
      checkSoon(signature, message, publicKey, key, resolve);
    });
  }
};

// src/net/constants.ts
var TOPICS = {
  memories: "isnad/v1/memories",
  witnessRequests: "isnad/v1/witness-requests",
  attestations: "isnad/v1/attestations",
  anchors: "isnad/v1/anchors",
  checkpoints: "isnad/v1/checkpoints",
  /** gossip-v1 §9: one identity's whole key log per message (record-v1 §13). */
  keyEvents: "isnad/v1/key-events"
};
var ALL_TOPICS = Object.values(TOPICS);
var MAX_ENVELOPE_BYTES = 2 * MAX_RECORD_BYTES + 4096;
var MAX_GOSSIP_DATA_BYTES = MAX_ENVELOPE_BYTES;
var MAX_GOSSIP_FRAME_BYTES = 2 * MAX_GOSSIP_DATA_BYTES + 4096;
var MAX_CHECKPOINT_AGE_MS = 60 * 60 * 1e3;
var SEEN_TTL_MS = 2 * 60 * 1e3;
var IDONTWANT_MIN_DATA_BYTES = 16 * 1024;
var MAX_FETCH_IDS = 64;
var SEND_CHUNK_BYTES = 65519 - 12;
var MAX_SYNC_PAGE_SIZE = 1024;
var PENALTY_HALF_LIFE_MS = 10 * 60 * 1e3;

// src/net/connection-pings.ts
import { PING_PROTOCOL } from "@libp2p/ping";
import { byteStream } from "@libp2p/utils";

// src/record/encoding.ts
import * as dagCbor from "@ipld/dag-cbor";
import { sha256 as sha2562 } from "@noble/hashes/sha2.js";
import { CID as CID2 } from "multiformats/cid";
import { Digest } from "multiformats/hashes/digest";
import { base64 } from "multiformats/bases/base64";

// src/record/multibase.ts
var BASE32_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
var BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
var BASE64_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64_ALPHABET.length; i++) BASE64_VALUES[BASE64_ALPHABET.charCodeAt(i)] = i;
var BASE32_CODES = Uint8Array.from(BASE32_ALPHABET, (char) => char.charCodeAt(0));
var asciiDecoder = new TextDecoder();
var base32Out = new Uint8Array(64);
function encodeBase32Multibase(bytes2) {
  const length = 1 + Math.ceil(bytes2.length * 8 / 5);
  if (base32Out.length < length) base32Out = new Uint8Array(length);
  const out = base32Out;
  out[0] = 98;
  let written = 1;
  let bits = 0;
  let buffer = 0;
  for (let i = 0; i < bytes2.length; i++) {
    buffer = buffer << 8 | bytes2[i];
    bits += 8;
    while (bits > 5) {
      bits -= 5;
      out[written++] = BASE32_CODES[31 & buffer >> bits];
    }
  }
  if (bits !== 0) out[written++] = BASE32_CODES[31 & buffer << 5 - bits];
  return asciiDecoder.decode(out.subarray(0, written));
}
function decodeBase64(text2) {
  let end = text2.length;
  while (end > 0 && text2.charCodeAt(end - 1) === 61) --end;
  const out = new Uint8Array(end * 6 / 8 | 0);
  let bits = 0;
  let buffer = 0;
  let written = 0;
  for (let i = 0; i < end; ++i) {
    const code2 = text2.charCodeAt(i);
    const value = code2 < 128 ? BASE64_VALUES[code2] : -1;
    if (value < 0) throw new SyntaxError("Non-base64 character");
    buffer = buffer << 6 | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = 255 & buffer >> bits;
    }
  }
  if (bits >= 6 || (255 & buffer << 8 - bits) !== 0) throw new SyntaxError("Unexpected end of data");
  return out;
}

// src/record/encoding.ts
var SHA2_256 = 18;
var CID_HEADER = Uint8Array.of(1, dagCbor.code, SHA2_256, 32);
function encodeCanonical(value) {
  try {
    return dagCbor.encode(hasUndefined(value) ? stripUndefined(value) : value);
  } catch (cause) {
    throw new IsnadError("SCHEMA_INVALID", "value cannot be encoded as DAG-CBOR", { cause });
  }
}
function cidOfBytes(bytes2) {
  return cidOfDigest(sha2562(bytes2));
}
function cidOfDigest(sha256Digest) {
  const cidBytes = new Uint8Array(CID_HEADER.length + 32);
  cidBytes.set(CID_HEADER, 0);
  cidBytes.set(sha256Digest, CID_HEADER.length);
  const digest = new Digest(SHA2_256, 32, cidBytes.subarray(CID_HEADER.length), cidBytes.subarray(2));
  return new CID2(1, dagCbor.code, digest, cidBytes);
}
function cidString(cid) {
  return encodeBase32Multibase(cid.bytes);
}
function recordCidOf(record) {
  return cidOfBytes(encodeCanonical(record));
}
var DOMAIN_TAGS = {
  memory: "isnad/memory/v1\0",
  attestation: "isnad/attestation/v1\0",
  anchor: "isnad/anchor/v1\0",
  witness_request: "isnad/witness-request/v1\0"
};
var utf8 = new TextEncoder();
var DOMAIN_BYTES = Object.fromEntries(
  Object.entries(DOMAIN_TAGS).map(([kind, tag2]) => [kind, utf8.encode(tag2)])
);
function signingInputFor(kind, cid) {
  const tag2 = DOMAIN_BYTES[kind];
  const input = new Uint8Array(tag2.length + cid.bytes.length);
  input.set(tag2, 0);
  input.set(cid.bytes, tag2.length);
  return input;
}
function encodeSignature(signature) {
  return base64.baseEncode(signature);
}
function decodeSignature(text2) {
  try {
    return decodeBase64(text2);
  } catch (cause) {
    throw new IsnadError("SIGNATURE_MALFORMED", "signature is not valid unpadded base64", { cause });
  }
}
function isPlainObject(value) {
  return value !== null && typeof value === "object" && !(value instanceof Uint8Array) && CID2.asCID(value) === null;
}
function hasUndefined(value) {
  if (value === void 0) return true;
  if (Array.isArray(value)) return value.some(hasUndefined);
  if (isPlainObject(value)) {
    for (const key in value) {
      if (Object.hasOwn(value, key) && hasUndefined(value[key])) return true;
    }
  }
  return false;
}
function stripUndefined(value) {
  if (Array.isArray(value)) return value.map(stripUndefined);
  if (isPlainObject(value)) {
    const out = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner !== void 0) out[key] = stripUndefined(inner);
    }
    return out;
  }
  return value;
}

// src/record/native-cid.ts
import { hash } from "node:crypto";
function cidOfBytesNative(bytes2) {
  return cidOfDigest(hash("sha256", bytes2, "buffer"));
}

// src/record/parse.ts
import * as dagCbor2 from "@ipld/dag-cbor";

// src/record/signed-bytes.ts
var utf82 = new TextEncoder();
var PREFIX = Uint8Array.from([162, 102, ...utf82.encode("record")]);
var SIGNATURE_KEY = Uint8Array.from([105, ...utf82.encode("signature")]);
var FIXED_BYTES2 = PREFIX.length + SIGNATURE_KEY.length;
function cborTextHeaderLength(length) {
  if (length < 24) return 1;
  if (length < 256) return 2;
  if (length < 65536) return 3;
  return 5;
}
function signedRecordSize(recordByteLength, signatureByteLength) {
  return FIXED_BYTES2 + recordByteLength + cborTextHeaderLength(signatureByteLength) + signatureByteLength;
}
function writeTextHeader(out, at, length) {
  if (length < 24) {
    out[at] = 96 | length;
    return at + 1;
  }
  if (length < 256) {
    out[at] = 120;
    out[at + 1] = length;
    return at + 2;
  }
  if (length < 65536) {
    out[at] = 121;
    out[at + 1] = length >>> 8;
    out[at + 2] = length & 255;
    return at + 3;
  }
  out[at] = 122;
  out[at + 1] = length >>> 24;
  out[at + 2] = length >>> 16 & 255;
  out[at + 3] = length >>> 8 & 255;
  out[at + 4] = length & 255;
  return at + 5;
}
function nonAsciiBytes(text2) {
  for (let i = 0; i < text2.length; i++) {
    if (text2.charCodeAt(i) > 127) return utf82.encode(text2);
  }
  return void 0;
}
function encodeSignedRecordBytes(recordBytes, signature) {
  const signatureBytes = nonAsciiBytes(signature);
  const length = signatureBytes?.length ?? signature.length;
  const out = new Uint8Array(signedRecordSize(recordBytes.length, length));
  out.set(recordBytes, RECORD_OFFSET);
  writeAroundRecord(out, recordBytes.length, signature, signatureBytes);
  return out;
}
var RECORD_OFFSET = PREFIX.length;
function wrapRecordInPlace(out, recordByteLength, signature) {
  const signatureBytes = nonAsciiBytes(signature);
  const size = signedRecordSize(recordByteLength, signatureBytes?.length ?? signature.length);
  if (size > out.length) return void 0;
  writeAroundRecord(out, recordByteLength, signature, signatureBytes);
  return size;
}
function writeAroundRecord(out, recordByteLength, signature, signatureBytes) {
  const length = signatureBytes?.length ?? signature.length;
  out.set(PREFIX, 0);
  out.set(SIGNATURE_KEY, PREFIX.length + recordByteLength);
  const at = writeTextHeader(out, PREFIX.length + recordByteLength + SIGNATURE_KEY.length, length);
  if (signatureBytes !== void 0) out.set(signatureBytes, at);
  else for (let i = 0; i < length; i++) out[at + i] = signature.charCodeAt(i);
}
var textHeader = new Uint8Array(5);

// src/record/parse.ts
function signerOf(record) {
  switch (record.kind) {
    case "memory":
      return record.author.agent_id;
    case "attestation":
      return record.witness;
    case "anchor":
      return record.anchored_by;
    case "witness_request":
      return record.requester;
  }
}
function timeOf(record) {
  switch (record.kind) {
    case "memory":
      return record.created_at;
    case "attestation":
      return record.witnessed_at;
    case "anchor":
      return record.created_at;
    case "witness_request":
      return record.created_at;
  }
}
var SIZED_ORIGINS = /* @__PURE__ */ new Set(["string", "array"]);
function isSizeIssue(issue) {
  if (issue.code === "too_big") return SIZED_ORIGINS.has(issue.origin);
  return issue.code === "custom" && issue.params?.isnad === TOO_LARGE.isnad;
}
function schemaError(error, what) {
  const code2 = error.issues.some(isSizeIssue) ? "FIELD_TOO_LARGE" : "SCHEMA_INVALID";
  const issues = error.issues.slice(0, 8).map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  const first = issues[0];
  const summary = first === void 0 ? "invalid" : `${first.path === "" ? "(root)" : first.path}: ${first.message}`;
  return new IsnadError(code2, `${what} is invalid: ${summary}`, { details: { issues } });
}
function parseSignedRecord(input) {
  const result = SignedRecordSchema.safeParse(input);
  if (!result.success) throw schemaError(result.error, "record");
  return result.data;
}
function decodeSignedRecord(bytes2) {
  if (bytes2.length > MAX_RECORD_BYTES) {
    throw new IsnadError("RECORD_TOO_LARGE", `record of ${bytes2.length} bytes exceeds ${MAX_RECORD_BYTES}`);
  }
  let data;
  try {
    data = dagCbor2.decode(bytes2);
  } catch (cause) {
    throw new IsnadError("DECODE_FAILED", "record bytes are not valid DAG-CBOR", { cause });
  }
  return parseSignedRecord(data);
}
function encodeSignedRecord(signed2) {
  return encodeSignedRecordBytes(encodeCanonical(signed2.record), signed2.signature);
}

// src/record/verify.ts
import { Buffer as Buffer2 } from "node:buffer";

// src/record/scratch-encoding.ts
import { encodeOptions } from "@ipld/dag-cbor";
import { encodeInto } from "cborg";
var scratch = new Uint8Array(MAX_RECORD_BYTES);
var recordArea = scratch.subarray(RECORD_OFFSET);
function encodeSignedIntoScratch(record, signature) {
  let recordLength;
  try {
    recordLength = encodeInto(record, recordArea, encodeOptions).written;
  } catch {
    return void 0;
  }
  const size = wrapRecordInPlace(scratch, recordLength, signature);
  return size === void 0 ? void 0 : { view: scratch.subarray(0, size), recordLength };
}

// src/record/constants.ts
var SIGNER_KEY_CACHE_SIZE = 4096;

// src/record/signer-key.ts
var keys = /* @__PURE__ */ new Map();
function signerKeyOf(did) {
  const cached = keys.get(did);
  if (cached !== void 0) return cached;
  const publicKey = decodeDidKey(did);
  if (keys.size >= SIGNER_KEY_CACHE_SIZE) {
    const oldest = keys.keys().next();
    if (oldest.done !== true) keys.delete(oldest.value);
  }
  keys.set(did, publicKey);
  return publicKey;
}

// src/record/verified-bytes.ts
var verifiedIds = /* @__PURE__ */ new WeakMap();
function noteVerifiedBytes(bytes2, id) {
  verifiedIds.set(bytes2, id);
}

// src/record/verify.ts
function verifyRecordBytes(bytes2, options) {
  return verifyPrepared(prepareVerification(decodeSignedRecord(bytes2), options, bytes2), options);
}
function prepareVerification(signed2, options, received) {
  const { record } = signed2;
  const { bytes: bytes2, recordBytes } = canonicalBytesOf(signed2, received);
  const size = signedRecordSize(recordBytes.length, utf8Length(signed2.signature));
  if (size > MAX_RECORD_BYTES) {
    throw new IsnadError("RECORD_TOO_LARGE", `record of ${size} bytes exceeds ${MAX_RECORD_BYTES}`);
  }
  if (options.expectedKind !== void 0 && record.kind !== options.expectedKind) {
    throw new IsnadError("WRONG_KIND", `expected a ${options.expectedKind} record, got ${record.kind}`);
  }
  const cid = cidOfBytesNative(recordBytes);
  const id = cidString(cid);
  const signer = signerOf(record);
  const publicKey = signerKeyOf(signer);
  const signature = decodeSignature(signed2.signature);
  return { id, cid, signed: signed2, bytes: bytes2, signer, signature, message: signingInputFor(record.kind, cid), publicKey };
}
function canonicalBytesOf(signed2, received) {
  const encoded = encodeSignedIntoScratch(signed2.record, signed2.signature);
  if (encoded === void 0) {
    const recordBytes = encodeCanonical(signed2.record);
    const bytes3 = encodeSignedRecordBytes(recordBytes, signed2.signature);
    if (received !== void 0 && !sameBytes(received, bytes3)) throw notCanonical(signed2.record);
    return { bytes: bytes3, recordBytes };
  }
  if (received !== void 0 && !sameBytes(received, encoded.view)) throw notCanonical(signed2.record);
  const bytes2 = encoded.view.slice();
  return { bytes: bytes2, recordBytes: bytes2.subarray(RECORD_OFFSET, RECORD_OFFSET + encoded.recordLength) };
}
function notCanonical(record) {
  return new IsnadError("DECODE_FAILED", `${record.kind} bytes are not in canonical DAG-CBOR form`);
}
function verifyPrepared(prepared, options) {
  const { signature, message, publicKey } = prepared;
  return finishVerification(prepared, options.verifier.verify(signature, message, publicKey), options);
}
function finishVerification(prepared, valid, options) {
  const { id, cid, signed: signed2, bytes: bytes2, signer } = prepared;
  const { record } = signed2;
  if (!valid) {
    throw new IsnadError("SIGNATURE_INVALID", `signature of ${record.kind} ${id} does not verify`, {
      details: { id, kind: record.kind, signer }
    });
  }
  assertNotInFuture(record, options.now, id);
  noteVerifiedBytes(bytes2, id);
  return { id, cid, signed: signed2, bytes: bytes2 };
}
function assertNotInFuture(record, now2, id) {
  const at = Date.parse(timeOf(record));
  if (at > now2 + MAX_CLOCK_SKEW_MS) {
    throw new IsnadError("TIMESTAMP_IN_FUTURE", `${record.kind} ${id} is dated ${timeOf(record)}, more than 15 minutes ahead`, {
      details: { id, at: timeOf(record) }
    });
  }
}
function sameBytes(a, b) {
  return a.length === b.length && Buffer2.compare(a, b) === 0;
}

// src/net/libp2p-node.ts
import { bootstrap } from "@libp2p/bootstrap";
import { StrictNoSign, gossipsub } from "@libp2p/gossipsub";
import { identify } from "@libp2p/identify";
import { mdns } from "@libp2p/mdns";
import { noise } from "@libp2p/noise";
import { ping } from "@libp2p/ping";
import { tcp } from "@libp2p/tcp";
import { webSockets } from "@libp2p/websockets";
import { yamux } from "@libp2p/yamux";
import { createLibp2p } from "libp2p";

// src/net/link-conditions.ts
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
var SEGMENT_BYTES = 1448;
var MIN_RTO_MS = 200;
var MAX_RTO_MS = 12e4;
var MAX_RETRANSMISSIONS = 15;
var DUPACK_THRESHOLD = 3;
function retransmissionTimeoutMs(conditions) {
  return 2 * conditions.latencyMs + Math.max(4 * conditions.jitterMs, MIN_RTO_MS);
}
function retransmissionDelayMs(segments, loss, rto, rtt, random) {
  let worst = 0;
  for (let s = 0; s < segments; s++) {
    if (random() >= loss) continue;
    const fast = segments - 1 - s >= DUPACK_THRESHOLD;
    let wait = fast ? rtt : rto;
    let timeout = fast ? rto : Math.min(2 * rto, MAX_RTO_MS);
    for (let tries = 1; tries < MAX_RETRANSMISSIONS && random() < loss; tries++) {
      wait += timeout;
      timeout = Math.min(2 * timeout, MAX_RTO_MS);
    }
    worst = Math.max(worst, wait);
  }
  return worst;
}

// src/net/link-shaping.ts
import { AbstractMultiaddrConnection } from "@libp2p/utils";

// src/net/limits.ts
var GOSSIP_RESOURCE_LIMITS = {
  /** @default 2 — inbound gossipsub streams per connection (one is all a peer needs). */
  maxInboundStreams: 2,
  /** @default 2 */
  maxOutboundStreams: 2,
  /** @default 8388608 — bytes queued to one slow peer before sends to it fail (8 MiB: 31 full messages). */
  maxOutboundBufferSize: 8 * 1024 * 1024,
  /** @default 65536 — a peer's subscription bookkeeping: isnad has six topics. */
  maxTopicBytesPerPeer: 64 * 1024,
  /** What one RPC may hold; larger RPCs are refused while decoding, before anything is kept. */
  decodeRpcLimits: {
    /** @default 64 */
    maxSubscriptions: 64,
    /** @default 512 */
    maxMessages: 512,
    /** @default 1000 — message ids in one IHAVE (gossipsub still caps ids per heartbeat at 5000). */
    maxIhaveMessageIDs: 1e3,
    /** @default 1000 */
    maxIwantMessageIDs: 1e3,
    /** @default 512 */
    maxIdontwantMessageIDs: 512,
    /** @default 64 — IHAVE, IWANT, GRAFT, PRUNE, IDONTWANT entries of one RPC. */
    maxControlMessages: 64,
    /** @default 16 */
    maxPeerInfos: 16
  }
};

// src/net/message-id.ts
var SEPARATOR = Uint8Array.of(0);
var EMPTY = new Uint8Array(0);

// src/net/scoring.ts
var USEFUL_PEER_TAG_TTL_MS = 30 * 60 * 1e3;
var USEFUL_PEER_RETAG_MS = 60 * 1e3;

// src/net/network.ts
import { peerIdFromString } from "@libp2p/peer-id";
import { multiaddr } from "@multiformats/multiaddr";

// src/keyring/constants.ts
var MAX_KEY_EVENT_BYTES = 4096;
var MAX_KEY_LOG_EVENTS = 64;
var MAX_KEY_LOG_BYTES = MAX_KEY_LOG_EVENTS * MAX_KEY_EVENT_BYTES + 4096;
var MAX_REASON_BYTES = 256;

// src/keyring/schema.ts
import { z as z7 } from "zod";
var keyDigest = z7.string().regex(/^sha2-256:[0-9a-f]{64}$/, "must be sha2-256:<64 lower-case hex digits>");
var common = {
  kind: z7.literal("key_event"),
  version: z7.literal(1),
  identity: didKey,
  /** Position in the identity's key log: 0 for the inception (record-v1 K4). */
  sequence: z7.number().int().min(0).max(MAX_KEY_LOG_EVENTS - 1),
  created_at: isoTimestamp
};
var InceptionEventSchema = z7.strictObject({
  ...common,
  type: z7.literal("inception"),
  next_key_digest: keyDigest
}).refine((e) => e.sequence === 0, { message: "an inception is event 0", path: ["sequence"] });
var RotationEventSchema = z7.strictObject({
  ...common,
  type: z7.literal("rotation"),
  previous: recordCid,
  new_key: didKey,
  next_key_digest: keyDigest,
  compromised_since: isoTimestamp.optional()
}).refine((e) => e.compromised_since === void 0 || Date.parse(e.compromised_since) <= Date.parse(e.created_at), {
  message: "compromised_since must not be after created_at",
  path: ["compromised_since"]
});
var DelegationEventSchema = z7.strictObject({
  ...common,
  type: z7.literal("delegation"),
  previous: recordCid,
  delegate: didKey,
  expires_at: isoTimestamp.optional()
}).refine((e) => e.expires_at === void 0 || Date.parse(e.expires_at) > Date.parse(e.created_at), {
  message: "expires_at must be after created_at",
  path: ["expires_at"]
});
var RevocationEventSchema = z7.strictObject({
  ...common,
  type: z7.literal("revocation"),
  previous: recordCid,
  key: didKey,
  effective_at: isoTimestamp,
  compromised_since: isoTimestamp.optional(),
  reason: boundedText(MAX_REASON_BYTES).optional()
}).refine((e) => Date.parse(e.effective_at) >= Date.parse(e.created_at), {
  // What was signed before a revocation stays valid unless the key is declared compromised.
  message: "effective_at must not be before created_at; use compromised_since for an earlier instant",
  path: ["effective_at"]
}).refine((e) => e.compromised_since === void 0 || Date.parse(e.compromised_since) <= Date.parse(e.effective_at), {
  message: "compromised_since must not be after effective_at",
  path: ["compromised_since"]
});
var KeyEventSchema = z7.discriminatedUnion("type", [
  InceptionEventSchema,
  RotationEventSchema,
  DelegationEventSchema,
  RevocationEventSchema
]);
var SignedKeyEventSchema = z7.strictObject({
  record: KeyEventSchema,
  signature: signatureBase64,
  co_signature: signatureBase64.optional()
}).refine((s) => s.co_signature !== void 0 === (s.record.type === "rotation" || s.record.type === "delegation"), {
  message: "a rotation or delegation carries a co_signature, other events none",
  path: ["co_signature"]
});
var KeyLogSchema = z7.strictObject({
  events: z7.array(SignedKeyEventSchema).min(1).max(MAX_KEY_LOG_EVENTS)
});

// src/keyring/codec.ts
import * as dagCbor3 from "@ipld/dag-cbor";
import { sha256 as sha2563 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

// src/keyring/keyring.ts
import { z as z10 } from "zod";

// src/ledger/constants.ts
var MAX_LINE_BYTES = 1024 * 1024;
var MAX_FLUSH_BYTES = 4 * 1024 * 1024;
var MAX_TORN_TAIL_BYTES = MAX_FLUSH_BYTES + MAX_LINE_BYTES;
var TAIL_PROBE_BYTES = 64 * 1024;
var READ_CHUNK_BYTES = 256 * 1024;
var ID_BYTES = 16;

// src/ledger/layout.ts
var instanceId = typedId(ID_PREFIXES.instance);

// src/ledger/hash.ts
import { hash as hash2 } from "node:crypto";
import canonicalize from "canonicalize";

// src/ledger/canonical-copy.ts
var NOT_PLAIN = /* @__PURE__ */ Symbol("not plain JSON");
var MAX_DEPTH = 64;
function isWellFormed(text2) {
  return text2.isWellFormed();
}
function startsWithDigit(key) {
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57;
}
var INSERTION_SORT_MAX = 32;
function sortKeys(keys2) {
  sortInPlace(keys2, compareCodeUnits, INSERTION_SORT_MAX);
}
function compareCodeUnits(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
function sortedCopy(value, depth) {
  switch (typeof value) {
    case "string":
      return isWellFormed(value) ? value : NOT_PLAIN;
    // -0 is written "0": the copy would differ from what a reader parses, so it takes the generic path.
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
    case "boolean":
      return value;
    case "object":
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
    const items = value;
    const out2 = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = sortedCopy(items[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out2[i] = item;
    }
    return out2;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null || "toJSON" in value) return NOT_PLAIN;
  const object = value;
  const keys2 = Object.keys(object);
  sortKeys(keys2);
  const out = {};
  for (const key of keys2) {
    if (startsWithDigit(key) || key === "__proto__" || !isWellFormed(key)) return NOT_PLAIN;
    const member = sortedCopy(object[key], depth + 1);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    out[key] = member;
  }
  return out;
}
function sortedPlainCopy(value) {
  let copy;
  try {
    copy = sortedCopy(value, 0);
  } catch {
    return void 0;
  }
  return copy === NOT_PLAIN ? void 0 : copy;
}

// src/ledger/hash.ts
var HASH_PREFIX = "sha256:";
function canonicalJson(value) {
  const copy = sortedPlainCopy(value);
  return copy === void 0 ? genericCanonicalJson(value) : JSON.stringify(copy);
}
function genericCanonicalJson(value) {
  let text2;
  try {
    text2 = canonicalize(value);
  } catch (err) {
    throw new IsnadError("SCHEMA_INVALID", `not representable as canonical JSON: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (text2 === void 0) throw new IsnadError("SCHEMA_INVALID", "not representable as canonical JSON");
  return text2;
}
function sha256Hex(text2) {
  return hash2("sha256", text2, "hex");
}
function hashLine(obj) {
  if (Object.hasOwn(obj, "hash")) {
    const { hash: _ignored, ...rest } = obj;
    return HASH_PREFIX + sha256Hex(canonicalJson(rest));
  }
  return HASH_PREFIX + sha256Hex(canonicalJson(obj));
}
function verifyLineHash(obj) {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return false;
  const claimed = obj.hash;
  if (typeof claimed !== "string") return false;
  try {
    return hashLine(obj) === claimed;
  } catch {
    return false;
  }
}
var HASH_MEMBER = /,"hash":"(sha256:[0-9a-f]{64})"}$/;
var LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]/;
function verifyCanonicalLineText(text2, parsed) {
  const match = HASH_MEMBER.exec(text2);
  if (match === null || typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const payloadText = text2.slice(0, match.index) + "}";
  if (LONE_SURROGATE_ESCAPE.test(payloadText)) return false;
  if (HASH_PREFIX + sha256Hex(payloadText) !== match[1]) return false;
  const { hash: _hash, ...payload } = parsed;
  return JSON.stringify(payload) === payloadText && hasSortedMembers(payload);
}
function hasSortedMembers(value) {
  if (Array.isArray(value)) return value.every(hasSortedMembers);
  if (typeof value !== "object" || value === null) return true;
  const keys2 = Object.keys(value);
  for (let i = 1; i < keys2.length; i++) if (keys2[i - 1] >= keys2[i]) return false;
  return keys2.every((key) => hasSortedMembers(value[key]));
}

// src/ledger/ids.ts
var ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
var ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
var scratch2 = Buffer.allocUnsafeSlow(64);
var digestBytes = new Uint8Array(ID_BYTES);
var MAX_SCRATCH_INPUT = 2048;
var inputScratch = Buffer.allocUnsafeSlow(MAX_SCRATCH_INPUT);

// src/ledger/entries.ts
var decoder = new TextDecoder("utf-8", { fatal: true });
function hashedLineValidator(schema) {
  return (text2) => {
    let raw;
    try {
      raw = JSON.parse(text2);
    } catch (err) {
      return { ok: false, reason: "json", message: err instanceof Error ? err.message : "not JSON" };
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, reason: "schema", message: issue === void 0 ? "schema" : `${issue.path.join(".") || "(line)"}: ${issue.message}` };
    }
    if (!verifyCanonicalLineText(text2, raw) && !verifyLineHash(raw)) return { ok: false, reason: "hash", message: "hash does not match the canonical payload" };
    return { ok: true, value: parsed.data };
  };
}
var validateEventLine = hashedLineValidator(EventSchema);

// src/ledger/coordination-schema.ts
import { z as z8 } from "zod";
var pid = z8.number().int().min(0);
var hostname = z8.string().min(1).max(255);
var InstanceLineSchema = z8.strictObject({
  kind: z8.enum(["registered", "seen"]),
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  pid,
  hostname,
  ts: isoTimestamp,
  hash: lineHash
});
var WriterLockInfoSchema = z8.strictObject({
  pid,
  hostname,
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  lease_id: typedId(ID_PREFIXES.lease),
  started_at: isoTimestamp
});
var LeaseLineSchema = z8.strictObject({
  kind: z8.enum(["acquired", "released", "taken_over"]),
  lease_id: typedId(ID_PREFIXES.lease),
  instance_id: typedId(ID_PREFIXES.instance),
  run_id: typedId(ID_PREFIXES.run),
  pid,
  hostname,
  ts: isoTimestamp,
  previous: WriterLockInfoSchema.optional(),
  hash: lineHash
});
var TornTailFindingSchema = z8.strictObject({
  id: typedId(ID_PREFIXES.finding),
  kind: z8.literal("torn_tail"),
  /** The shard, relative to the data directory. */
  file: z8.string().min(1),
  /** Where the torn bytes began: the shard's length after truncation. */
  offset: z8.number().int().min(0),
  /** How many bytes were torn off. */
  bytes: z8.number().int().min(1),
  /** Why the tail failed: no newline, or the check its last line failed. */
  reason: z8.enum(["unterminated", "utf8", "json", "schema", "hash", "order", "archive"]),
  /** The byte-for-byte copy, relative to the data directory. */
  evidence: z8.string().min(1),
  /** Hex SHA-256 of the torn bytes, so the copy can be checked. */
  sha256: z8.string().regex(/^[0-9a-f]{64}$/),
  ts: isoTimestamp,
  hash: lineHash
});
var validateInstanceLine = hashedLineValidator(InstanceLineSchema);
var validateLeaseLine = hashedLineValidator(LeaseLineSchema);

// src/ledger/tail.ts
var decoder2 = new TextDecoder("utf-8", { fatal: true });

// src/ledger/event-builder.ts
import { z as z9 } from "zod";
var EventInputSchema = z9.strictObject({
  type: EventSchema.shape.type,
  actor: EventSchema.shape.actor,
  owner: EventSchema.shape.owner,
  payload: EventSchema.shape.payload,
  idempotency_key: EventSchema.shape.idempotency_key,
  causal_refs: EventSchema.shape.causal_refs.optional(),
  visibility: EventSchema.shape.visibility.optional(),
  observedLc: z9.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional()
});
var INPUT_KEYS = new Set(Object.keys(EventInputSchema.shape));
var TYPES = new Set(EventSchema.shape.type.options);
var VISIBILITY_VALUES = new Set(EventSchema.shape.visibility.options);
var EventContextSchema = z9.strictObject({
  scope: EventSchema.shape.scope,
  instanceId: EventSchema.shape.instance_id,
  runId: EventSchema.shape.run_id,
  tsWall: EventSchema.shape.ts_wall
});
var HASH_MEMBER_BYTES = ',"hash":"'.length + HASH_PREFIX.length + 64 + '"}'.length - 1;
var HASH_MEMBER_START = Buffer.from(',"hash":"', "latin1");

// src/keyring/keyring.ts
var KeyEventLineSchema = z10.object({ id: z10.string(), event: z10.unknown(), hash: z10.string() });

// src/keyring/json-schema.ts
import { z as z11 } from "zod";

// src/net/fetch.ts
import * as dagCbor5 from "@ipld/dag-cbor";
import { z as z15 } from "zod";

// src/anchor/blocks.ts
import * as dagPb from "@ipld/dag-pb";
import { LevelBlockstore } from "blockstore-level";
import { CID as CID3 } from "multiformats/cid";

// src/anchor/constants.ts
var RAW_CODE = 85;
var DAG_PB_CODE = 112;
var SHA2_256_CODE = 18;
var MAX_BLOCK_BYTES = 1024 * 1024;
var BLOCKSTORE_WRITE_BUFFER_BYTES = 64 * 1024 * 1024;
var MAX_FETCH_BLOCKS = 64;
var MAX_URL_BYTES = 10 * 1024 * 1024;
var MAX_GIT_BLOB_BYTES = 64 * 1024 * 1024;
var ANCHOR_STATE_TTL_MS = 10 * 60 * 1e3;
var MAX_REASON_CHARS = 1024;

// src/anchor/blocks.ts
function parseCid(text2) {
  try {
    return CID3.parse(text2);
  } catch (cause) {
    throw new IsnadError("CID_INVALID", `${text2} is not a CID`, { cause });
  }
}
function isUnixfsBlockCid(cid) {
  return cid.multihash.code === SHA2_256_CODE && (cid.code === RAW_CODE || cid.code === DAG_PB_CODE);
}

// src/anchor/address-policy.ts
import { BlockList, isIP } from "node:net";
var IPV4_SPECIAL = [
  { cidr: "0.0.0.0/8", name: '"this network" (RFC 791), 0.0.0.0 reaches this host' },
  { cidr: "10.0.0.0/8", name: "private-use (RFC 1918)" },
  { cidr: "100.64.0.0/10", name: "shared address space, carrier-grade NAT (RFC 6598)" },
  { cidr: "127.0.0.0/8", name: "loopback (RFC 1122)" },
  { cidr: "169.254.0.0/16", name: "link-local, incl. cloud metadata 169.254.169.254 (RFC 3927)" },
  { cidr: "172.16.0.0/12", name: "private-use (RFC 1918)" },
  { cidr: "192.0.0.0/24", name: "IETF protocol assignments (RFC 6890)" },
  { cidr: "192.0.2.0/24", name: "documentation TEST-NET-1 (RFC 5737)" },
  { cidr: "192.88.99.0/24", name: "6to4 relay anycast (RFC 7526)" },
  { cidr: "192.168.0.0/16", name: "private-use (RFC 1918)" },
  { cidr: "198.18.0.0/15", name: "benchmarking (RFC 2544)" },
  { cidr: "198.51.100.0/24", name: "documentation TEST-NET-2 (RFC 5737)" },
  { cidr: "203.0.113.0/24", name: "documentation TEST-NET-3 (RFC 5737)" },
  { cidr: "224.0.0.0/4", name: "multicast (RFC 5771)" },
  { cidr: "240.0.0.0/4", name: "reserved, incl. broadcast 255.255.255.255 (RFC 1112, RFC 919)" }
];
var IPV6_SPECIAL = [
  { cidr: "::/128", name: "unspecified (RFC 4291), :: reaches this host" },
  { cidr: "::1/128", name: "loopback (RFC 4291)" },
  { cidr: "::/96", name: "IPv4-compatible, deprecated (RFC 4291)" },
  { cidr: "64:ff9b::/96", name: "NAT64 well-known prefix (RFC 6052)" },
  { cidr: "64:ff9b:1::/48", name: "NAT64 local-use (RFC 8215)" },
  { cidr: "100::/64", name: "discard-only (RFC 6666)" },
  { cidr: "2001::/23", name: "IETF protocol assignments, incl. Teredo 2001::/32 (RFC 2928, RFC 4380)" },
  { cidr: "2001:db8::/32", name: "documentation (RFC 3849)" },
  { cidr: "2002::/16", name: "6to4 (RFC 3056)" },
  { cidr: "3fff::/20", name: "documentation (RFC 9637)" },
  { cidr: "5f00::/16", name: "segment routing SIDs (RFC 9602)" },
  { cidr: "fc00::/7", name: "unique local (RFC 4193)" },
  { cidr: "fe80::/10", name: "link-local (RFC 4291)" },
  { cidr: "fec0::/10", name: "site-local, deprecated (RFC 3879)" },
  { cidr: "ff00::/8", name: "multicast (RFC 4291)" }
];
var GLOBAL_UNICAST = { cidr: "2000::/3", name: "outside global unicast 2000::/3 (RFC 4291)" };
var MAPPED = { cidr: "::ffff:0:0/96", name: "IPv4-mapped (RFC 4291)" };
function compile(ranges, family) {
  return ranges.map((range) => {
    const list = new BlockList();
    const [network = "", prefix = ""] = range.cidr.split("/");
    list.addSubnet(network, Number(prefix), family);
    return { range, list };
  });
}
var V4 = compile(IPV4_SPECIAL, "ipv4");
var V6 = compile(IPV6_SPECIAL, "ipv6");
var [GLOBAL] = compile([GLOBAL_UNICAST], "ipv6");
var [MAPPED_LIST] = compile([MAPPED], "ipv6");

// src/anchor/unixfs.ts
import { importByteStream } from "ipfs-unixfs-importer";
import { fixedSize } from "ipfs-unixfs-importer/chunker";
import { balanced } from "ipfs-unixfs-importer/layout";

// src/anchor/states.ts
import { Level } from "level";
import { z as z12 } from "zod";
var StoredStateSchema = z12.strictObject({
  state: z12.enum(["verified", "mismatch", "unreachable", "unverifiable"]),
  reason: z12.string().min(1).max(MAX_REASON_CHARS),
  checked_at: isoTimestamp,
  drift: z12.boolean().optional()
});

// src/anchor/create.ts
import { z as z13 } from "zod";
var text = z13.string().min(1).max(MAX_REFERENCE_BYTES);
var AnchorSourceSchema = z13.discriminatedUnion("source", [
  z13.strictObject({ source: z13.literal("file"), path: text }),
  z13.strictObject({ source: z13.literal("cid"), cid: text }),
  z13.strictObject({ source: z13.literal("git"), repository: text, commit: text, path: text.optional() }),
  z13.strictObject({ source: z13.literal("url"), url: text }),
  z13.strictObject({ source: z13.literal("moltbook"), url: text }),
  z13.strictObject({
    source: z13.literal("blockchain"),
    reference: text,
    hash: z13.string().regex(/^[a-z0-9-]+:[0-9a-f]+$/, "must look like sha2-256:<hex>").max(256)
  })
]);

// src/net/frames.ts
import * as lp from "it-length-prefixed";

// src/net/record-gate.ts
var SIGNATURE_CHARS = 86;
var MIN_SIGNED_BYTES = 8 + 10 + 2 + SIGNATURE_CHARS + 1;
var utf83 = new TextDecoder("utf-8", { fatal: false });

// src/net/wire.ts
import * as dagCbor4 from "@ipld/dag-cbor";
import { z as z14 } from "zod";
var bytes = z14.custom((value) => value instanceof Uint8Array, { message: "must be a byte string" });
var WitnessEnvelopeSchema = z14.strictObject({ memory: bytes, request: bytes });
var FetchRequestSchema = z14.strictObject({
  ids: z14.array(recordCid).min(1).max(MAX_FETCH_IDS)
});
var cursor = z14.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
var SyncRequestSchema = z14.strictObject({
  cursor,
  limit: z14.number().int().min(1).max(MAX_SYNC_PAGE_SIZE)
});
var SyncHeaderSchema = z14.strictObject({
  count: z14.number().int().min(0).max(MAX_SYNC_PAGE_SIZE),
  next: cursor
});

// src/net/fetch.ts
var blockCid = z15.string().max(128).refine((text2) => {
  try {
    const cid = parseCid(text2);
    return cid.version === 1 && isUnixfsBlockCid(cid) && cid.toString() === text2;
  } catch {
    return false;
  }
}, { message: "must be a canonical CIDv1 of a raw or dag-pb block with sha2-256" });
var BlockRequestSchema = z15.strictObject({ blocks: z15.array(blockCid).min(1).max(MAX_FETCH_BLOCKS) });
var FetchRequestV11Schema = z15.union([FetchRequestSchema, BlockRequestSchema]);

// src/net/gossip.ts
import { TopicValidatorResult } from "@libp2p/gossipsub";
var TOPIC_OF_KIND = {
  memory: TOPICS.memories,
  attestation: TOPICS.attestations,
  anchor: TOPICS.anchors
};

// src/net/gossip-validate.ts
import * as dagCbor6 from "@ipld/dag-cbor";

// src/merkle/constants.ts
var HASH_BYTES = 32;
var MAX_TREE_SIZE = Number.MAX_SAFE_INTEGER;
var MAX_PROOF_HASHES = 64;

// src/merkle/hash.ts
import { sha256 as sha2564 } from "@noble/hashes/sha2.js";
import { bytesToHex as bytesToHex2, hexToBytes } from "@noble/hashes/utils.js";
var EMPTY_ROOT = sha2564(new Uint8Array(0));
var CHILDREN_SCRATCH = new Uint8Array(1 + 2 * HASH_BYTES);
function hashToHex(hash3) {
  return bytesToHex2(hash3);
}

// src/merkle/proof-json.ts
import { z as z16 } from "zod";
var treeSize = z16.number().int().min(0).max(MAX_TREE_SIZE);
var hexHash = z16.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex digits (a SHA-256 hash)");
var path = z16.array(hexHash).max(MAX_PROOF_HASHES);
var InclusionProofJsonSchema = z16.strictObject({
  leaf_index: treeSize,
  tree_size: treeSize,
  path
}).refine((p) => p.leaf_index < p.tree_size, { message: "leaf_index must be below tree_size", path: ["leaf_index"] });
var ConsistencyProofJsonSchema = z16.strictObject({
  first: treeSize,
  second: treeSize,
  path
}).refine((p) => p.first <= p.second, { message: "first must not exceed second", path: ["first"] });

// src/merkle/log-keys.ts
var HEX_DIGITS = new TextEncoder().encode("0123456789abcdef");
var LEAF_KEY_ASCII = new Uint8Array(2 + 2 * HASH_BYTES);
LEAF_KEY_ASCII.set(new TextEncoder().encode("l/"));
var ASCII = new TextDecoder();
var TWO_32 = 2 ** 32;

// src/merkle/leaf.ts
import { base32 } from "multiformats/bases/base32";

// src/merkle/checkpoint.ts
import { z as z17 } from "zod";
var EMPTY_ROOT_HEX = hashToHex(EMPTY_ROOT);
var CheckpointRecordSchema = z17.strictObject({
  kind: z17.literal("checkpoint"),
  version: z17.literal(1),
  /** did:key of the node's signer: the log's identity. */
  log: didKey,
  size: z17.number().int().min(0).max(MAX_TREE_SIZE),
  /** MTH of the first `size` leaves, 64 lower-case hex digits. */
  root: z17.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex digits (a SHA-256 hash)"),
  created_at: isoTimestamp
}).refine((c) => c.size !== 0 || c.root === EMPTY_ROOT_HEX, {
  message: "the root of the empty tree is SHA-256 of the empty string",
  path: ["root"]
});
var SignedCheckpointSchema = z17.strictObject({
  record: CheckpointRecordSchema,
  signature: signatureBase64
});

// src/merkle/record-proof.ts
import { z as z18 } from "zod";
var RecordInclusionSchema = z18.strictObject({
  record: recordCid,
  proof: InclusionProofJsonSchema,
  checkpoint: SignedCheckpointSchema
});

// src/merkle/equivocation.ts
import { z as z19 } from "zod";
var EvidenceSchema = z19.discriminatedUnion("type", [
  z19.strictObject({
    type: z19.literal("equivocation"),
    log: z19.string(),
    size: z19.number(),
    checkpoints: z19.tuple([SignedCheckpointSchema, SignedCheckpointSchema])
  }),
  z19.strictObject({
    type: z19.literal("inconsistency"),
    log: z19.string(),
    checkpoints: z19.tuple([SignedCheckpointSchema, SignedCheckpointSchema]),
    proof: ConsistencyProofJsonSchema
  })
]);

// src/net/gossip-validate.ts
var KIND_OF_TOPIC = {
  [TOPICS.memories]: "memory",
  [TOPICS.attestations]: "attestation",
  [TOPICS.anchors]: "anchor"
};

// src/net/peer-key.ts
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from "@libp2p/crypto/keys";

// src/sim/scenario.ts
var ROLES = [
  "honest-author",
  "honest-witness",
  "lazy-witness",
  "sybil",
  "colluder",
  "camouflage",
  "contradictor"
];
var MAX_SCENARIO_NODES = 1e6;
var minute = z20.number().min(0);
var share = z20.number().min(0).max(1);
var count2 = z20.number().int().min(0);
var NodesSchema = z20.strictObject({
  "honest-author": count2.default(0),
  "honest-witness": count2.default(0),
  "lazy-witness": count2.default(0),
  sybil: count2.default(0),
  colluder: count2.default(0),
  camouflage: count2.default(0),
  contradictor: count2.default(0)
});
var BehaviourSchema = z20.strictObject({
  /** Honest witnesses judge a memory correctly with this probability. */
  honestAccuracy: share.default(0.95),
  /** Share of requests a lazy witness answers (always with confirm: it never checks). */
  lazyAnswerRate: share.default(0.5),
  /** Sybils also dispute the true memories of honest authors they are asked about. */
  sybilsDisputeHonest: z20.boolean().default(true),
  /** Simulated minute at which camouflage agents stop behaving and start lying. */
  camouflageDefectAt: minute.default(2),
  /** Share of an honest author's memories that are (unknowingly) false. */
  honestFalseRate: share.default(0.1),
  /** Simulated seconds a witness takes to review a request before answering. */
  reviewSeconds: z20.number().min(0).max(3600).default(1)
});
var RequestsSchema = z20.strictObject({
  /** Memories each author-like agent (honest author, sybil, colluder, camouflage, contradictor) publishes per simulated minute. */
  memoriesPerAuthorPerMinute: z20.number().min(0).max(600).default(1),
  /** Witnesses asked per memory. */
  witnessesPerMemory: z20.number().int().min(0).max(32).default(3),
  /** uniform: evenly spaced; poisson: exponential gaps; burst: all of a minute at its start. */
  pattern: z20.enum(["uniform", "poisson", "burst"]).default("poisson")
});
var ExplicitMemorySchema = z20.strictObject({
  at: minute,
  author: z20.number().int().min(0),
  truth: z20.boolean(),
  witnesses: z20.array(z20.number().int().min(0)).max(32).optional()
});
var ChurnEventSchema = z20.strictObject({
  at: minute,
  /** How many online honest nodes leave (chosen by the seed). */
  leave: count2.optional(),
  /** How many of the nodes that left come back (they catch up with sync-v1). */
  join: count2.optional()
}).refine((e) => e.leave === void 0 !== (e.join === void 0), { message: "a churn event has exactly one of leave or join" });
var PartitionSchema = z20.strictObject({
  at: minute,
  /** Share of the nodes cut off into the second side. */
  split: z20.number().gt(0).lt(1).default(0.5),
  /** When the two sides reconnect; absent: never. */
  healAt: minute.optional()
});
var NetworkSchema = z20.strictObject({
  /** Connections each node opens at the start (plus those it receives). */
  dialsPerNode: z20.number().int().min(1).max(32).default(4),
  /**
   * One-way delay added to everything a node sends to another node (never to the HTTP API): by
   * userland link shaping in every runner (src/net/link-shaping.ts), by tc netem in containers where
   * the kernel has it.
   */
  latencyMs: z20.number().min(0).max(1e4).default(0),
  /** Each delay is uniform in latency ± jitter. */
  jitterMs: z20.number().min(0).max(1e4).default(0),
  /** Segment loss in percent; TCP retransmits, so it shows as delay (src/net/link-conditions.ts). */
  lossPercent: z20.number().min(0).max(100).default(0)
});
var MetricsSchema = z20.strictObject({
  /** Honest nodes whose local view of trust is scored against the ground truth. */
  observers: z20.number().int().min(1).max(64).default(3),
  /** Honest agents every observer trusts as reputation roots (src/reputation), besides itself. */
  trustRoots: z20.number().int().min(0).max(64).default(5),
  /** Extra runs with these Sybil counts (the rest of the scenario unchanged): the Sybil-influence curve. */
  sybilSweep: z20.array(count2).max(12).default([])
});
var ScenarioSchema = z20.strictObject({
  name: z20.string().min(1).max(80).regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase letters, digits and dashes"),
  description: z20.string().max(2e3).default(""),
  seed: z20.number().int().min(0).max(2 ** 31 - 1),
  nodes: NodesSchema,
  /** Simulated minutes of activity (then the run settles and is measured). */
  durationMinutes: z20.number().gt(0).max(24 * 60),
  timeScale: z20.strictObject({ realSecondsPerMinute: z20.number().gt(0).max(3600).default(60) }).default({ realSecondsPerMinute: 60 }),
  behaviour: BehaviourSchema.default(BehaviourSchema.parse({})),
  requests: RequestsSchema.default(RequestsSchema.parse({})),
  memories: z20.array(ExplicitMemorySchema).max(1e4).default([]),
  churn: z20.array(ChurnEventSchema).max(1e3).default([]),
  partitions: z20.array(PartitionSchema).max(100).default([]),
  network: NetworkSchema.default(NetworkSchema.parse({})),
  metrics: MetricsSchema.default(MetricsSchema.parse({}))
}).superRefine((s, ctx) => {
  const total = nodeCount(s.nodes);
  if (total < 2) ctx.addIssue({ code: "custom", path: ["nodes"], message: "a scenario needs at least 2 nodes" });
  if (total > MAX_SCENARIO_NODES) ctx.addIssue({ code: "custom", path: ["nodes"], message: `at most ${MAX_SCENARIO_NODES} nodes` });
  s.memories.forEach((m, i) => {
    if (m.author >= total) ctx.addIssue({ code: "custom", path: ["memories", i, "author"], message: `no node ${m.author} (${total} nodes)` });
    if (m.at > s.durationMinutes) ctx.addIssue({ code: "custom", path: ["memories", i, "at"], message: "after the end of the scenario" });
    for (const w of m.witnesses ?? []) {
      if (w >= total || w === m.author) ctx.addIssue({ code: "custom", path: ["memories", i, "witnesses"], message: `witness ${w} is not another node` });
    }
  });
});
function nodeCount(nodes) {
  return ROLES.reduce((sum, role) => sum + nodes[role], 0);
}
function parseScenario(input, source = "scenario") {
  const result = ScenarioSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  throw new IsnadError("SCHEMA_INVALID", `${source} is not a valid scenario: ${problems.join("; ")}`, { details: { issues: problems } });
}
function parseScenarioText(text2, source = "scenario") {
  let data;
  try {
    data = text2.trimStart().startsWith("{") ? JSON.parse(text2) : parseYaml(text2, { maxAliasCount: 100 });
  } catch (cause) {
    throw new IsnadError("JSON_INVALID", `${source} is neither valid JSON nor valid YAML`, { cause });
  }
  return parseScenario(data, source);
}
async function readScenarioFile(path2) {
  let text2;
  try {
    text2 = await readFile(path2, "utf8");
  } catch (cause) {
    throw new IsnadError("NOT_FOUND", `cannot read scenario ${path2}`, { cause });
  }
  return parseScenarioText(text2, path2);
}
function withSybils(scenario2, sybils2) {
  return { ...scenario2, nodes: { ...scenario2.nodes, sybil: sybils2 }, metrics: { ...scenario2.metrics, sybilSweep: [] } };
}

// src/sim/builtin.ts
function packageRoot() {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
var BUILTIN_SCENARIO_DIR = join(packageRoot(), "scenarios");
async function loadScenario(pathOrName) {
  if (existsSync(pathOrName)) return await readScenarioFile(pathOrName);
  const builtin = join(BUILTIN_SCENARIO_DIR, `${pathOrName}.yaml`);
  return await readScenarioFile(existsSync(builtin) ? builtin : pathOrName);
}

// src/sim/random.ts
import { uniformFloat64 as uniformFloat642 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus as xoroshiro128plus2 } from "pure-rand/generator/xoroshiro128plus";
function createSimRandom(seed2) {
  const rng = xoroshiro128plus2(seed2);
  const next = () => uniformFloat642(rng);
  const int = (n) => Math.floor(next() * n);
  return {
    next,
    int,
    sample: (items, count3) => {
      const copy = [...items];
      const take = Math.min(count3, copy.length);
      for (let i = 0; i < take; i++) {
        const j2 = i + int(copy.length - i);
        const tmp = copy[i];
        copy[i] = copy[j2];
        copy[j2] = tmp;
      }
      return copy.slice(0, take);
    },
    exponential: (rate) => -Math.log(1 - next()) / rate
  };
}

// src/sim/behaviour.ts
function judge(truth, accuracy, draw) {
  const right = draw < accuracy;
  return truth === right ? "confirm" : "dispute";
}
function verdictOf(input) {
  const { scenario: scenario2, witnessRole, authorRole, truth, at, draw } = input;
  const { behaviour } = scenario2;
  switch (witnessRole) {
    // Rubber-stamps what it answers, and answers only part of what it is asked.
    case "lazy-witness":
      return draw < behaviour.lazyAnswerRate ? "confirm" : null;
    // The ring vouches for itself and, when told to, runs down everyone else's true claims.
    case "sybil":
      if (authorRole === "sybil") return "confirm";
      return behaviour.sybilsDisputeHonest && truth ? "dispute" : null;
    // Colluders vouch for each other and behave elsewhere, to keep a good name.
    case "colluder":
      return authorRole === "colluder" ? "confirm" : judge(truth, behaviour.honestAccuracy, draw);
    // Honest until the defection minute, then the opposite of the truth (and loyal to its own kind).
    case "camouflage":
      if (at < behaviour.camouflageDefectAt) return judge(truth, behaviour.honestAccuracy, draw);
      return authorRole === "camouflage" || !truth ? "confirm" : "dispute";
    default:
      return judge(truth, behaviour.honestAccuracy, draw);
  }
}

// src/sim/plan.ts
var AUTHOR_ROLES = /* @__PURE__ */ new Set(["honest-author", "sybil", "colluder", "camouflage", "contradictor"]);
var HONEST_ROLES = /* @__PURE__ */ new Set(["honest-author", "honest-witness"]);
function rolesOf(scenario2) {
  return ROLES.flatMap((role) => Array.from({ length: scenario2.nodes[role] }, () => role));
}
function isHonest(role) {
  return HONEST_ROLES.has(role);
}
function createPlan(scenario2) {
  const random = createSimRandom(scenario2.seed);
  const roles = rolesOf(scenario2);
  const total = nodeCount(scenario2.nodes);
  const edges = randomTopology(total, scenario2.network.dialsPerNode, random.next);
  const honest = roles.flatMap((role, i) => isHonest(role) ? [i] : []);
  const byPreference = [...honest].sort((a, b) => Number(roles[a] === "honest-author") - Number(roles[b] === "honest-author") || a - b);
  const observers = byPreference.slice(0, Math.min(scenario2.metrics.observers, byPreference.length));
  const memories2 = planMemories(scenario2, roles, random);
  const events = planEvents(scenario2, honest.filter((i) => !observers.includes(i)), total, random);
  const trustRoots = random.sample(honest, scenario2.metrics.trustRoots).sort((a, b) => a - b);
  return { roles, memories: memories2, events, observers, trustRoots, edges };
}
function planMemories(scenario2, roles, random) {
  const drafts = [];
  const rate = scenario2.requests.memoriesPerAuthorPerMinute;
  roles.forEach((role, author) => {
    if (!AUTHOR_ROLES.has(role) || rate === 0) return;
    const times = memoryTimes(scenario2, rate, random);
    times.forEach((at, k) => {
      drafts.push({ at, author, truth: truthOf(scenario2, role, at, k, random) });
    });
  });
  for (const m of scenario2.memories) drafts.push({ ...m });
  drafts.sort((a, b) => a.at - b.at || a.author - b.author);
  const byRole2 = /* @__PURE__ */ new Map();
  roles.forEach((role, i) => {
    const list = byRole2.get(role);
    if (list === void 0) byRole2.set(role, [i]);
    else list.push(i);
  });
  return drafts.map((draft, serial) => {
    const witnesses = draft.witnesses ?? chooseWitnesses(scenario2, roles, byRole2, draft.author, draft.at, random);
    const answers = witnesses.map((witness) => ({
      witness,
      verdict: verdictOf({ scenario: scenario2, witnessRole: roles[witness], authorRole: roles[draft.author], truth: draft.truth, at: draft.at, draw: random.next() }),
      delayMinutes: scenario2.behaviour.reviewSeconds / 60 * (0.5 + random.next())
    }));
    return { serial, at: draft.at, author: draft.author, truth: draft.truth, answers };
  });
}
function memoryTimes(scenario2, rate, random) {
  const end = scenario2.durationMinutes;
  const times = [];
  if (scenario2.requests.pattern === "poisson") {
    for (let t = random.exponential(rate); t < end; t += random.exponential(rate)) times.push(t);
    return times;
  }
  const perMinute = Math.max(1, Math.round(rate));
  const gap = 1 / rate;
  const offset = random.next() * Math.min(1, gap);
  for (let t = offset; t < end; t += scenario2.requests.pattern === "uniform" ? gap : 1) {
    if (scenario2.requests.pattern === "uniform") times.push(t);
    else for (let k = 0; k < perMinute; k++) times.push(Math.floor(t) + k * 1e-3);
  }
  return times;
}
function truthOf(scenario2, role, at, k, random) {
  switch (role) {
    case "sybil":
    case "colluder":
      return false;
    case "camouflage":
      return at < scenario2.behaviour.camouflageDefectAt;
    // Every second claim contradicts the one before it: one of each pair is false.
    case "contradictor":
      return k % 2 === 0;
    default:
      return random.next() >= scenario2.behaviour.honestFalseRate;
  }
}
function chooseWitnesses(scenario2, roles, byRole2, author, at, random) {
  const k = scenario2.requests.witnessesPerMemory;
  const role = roles[author];
  const defected = role === "camouflage" && at >= scenario2.behaviour.camouflageDefectAt;
  const accomplices = role === "sybil" || role === "colluder" || defected ? without(byRole2.get(role) ?? [], [author]) : null;
  const chosen = accomplices === null ? [] : sampleOf(random, accomplices.length, accomplices.at, k);
  const rest = without({ length: roles.length, at: (i) => i }, [author, ...chosen]);
  return [...chosen, ...sampleOf(random, rest.length, rest.at, k - chosen.length)];
}
function without(list, removed) {
  const base = Array.isArray(list) ? { length: list.length, at: (i) => list[i] } : list;
  const gaps = [];
  for (const value of removed) {
    let lo = 0;
    let hi = base.length;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (base.at(mid) < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo < base.length && base.at(lo) === value && !gaps.includes(lo)) gaps.push(lo);
  }
  gaps.sort((a, b) => a - b);
  return {
    length: base.length - gaps.length,
    at: (position) => {
      let p = position;
      for (const gap of gaps) if (gap <= p) p++;
      return base.at(p);
    }
  };
}
function sampleOf(random, length, at, count3) {
  const take = Math.min(count3, length);
  const swapped = /* @__PURE__ */ new Map();
  const get = (i) => swapped.get(i) ?? at(i);
  for (let i = 0; i < take; i++) {
    const j2 = i + random.int(length - i);
    const tmp = get(i);
    swapped.set(i, get(j2));
    swapped.set(j2, tmp);
  }
  return Array.from({ length: take }, (_, i) => get(i));
}
function planEvents(scenario2, churnable, total, random) {
  const events = [];
  const away = [];
  const online = new Set(churnable);
  for (const churn of [...scenario2.churn].sort((a, b) => a.at - b.at)) {
    if (churn.leave !== void 0) {
      const nodes = random.sample([...online].sort((a, b) => a - b), churn.leave);
      for (const n of nodes) {
        online.delete(n);
        away.push(n);
      }
      if (nodes.length > 0) events.push({ at: churn.at, kind: "leave", nodes });
    } else {
      const nodes = away.splice(0, churn.join ?? 0);
      for (const n of nodes) online.add(n);
      if (nodes.length > 0) events.push({ at: churn.at, kind: "join", nodes });
    }
  }
  for (const partition of scenario2.partitions) {
    const all = Array.from({ length: total }, (_, i) => i);
    const side = random.sample(all, Math.max(1, Math.min(total - 1, Math.round(partition.split * total)))).sort((a, b) => a - b);
    events.push({ at: partition.at, kind: "partition", side });
    if (partition.healAt !== void 0) events.push({ at: partition.healAt, kind: "heal" });
  }
  return events.sort((a, b) => a.at - b.at);
}
function randomTopology(count3, dialsPerNode, random) {
  const edges = [];
  const linked = /* @__PURE__ */ new Set();
  const key = (a, b) => a < b ? `${a}-${b}` : `${b}-${a}`;
  const add = (a, b) => {
    edges.push([a, b]);
    linked.add(key(a, b));
  };
  for (let i = 1; i < count3; i++) add(i, Math.floor(random() * i));
  const wanted = Math.min(dialsPerNode, count3 - 1);
  for (let i = 0; i < count3; i++) {
    let dialled = i === 0 ? 0 : 1;
    let attempts = 0;
    while (dialled < wanted && attempts++ < 20 * count3) {
      const j2 = Math.floor(random() * count3);
      if (j2 === i || linked.has(key(i, j2))) continue;
      add(i, j2);
      dialled++;
    }
  }
  return edges;
}

// src/sim/model/engine.ts
import { performance as performance2 } from "node:perf_hooks";

// src/sim/model/holders.ts
var HolderGroup = class {
  constructor(size, id) {
    this.id = id;
    this.members = new Uint8Array(size);
  }
  id;
  members;
  /** Message indexes (memories and attestations) the group's members hold. */
  messages = [];
  /** Answer slots whose witness request was published to this group without reaching its witness. */
  pending = [];
};
var Holders = class {
  constructor(size) {
    this.size = size;
  }
  size;
  groups = [];
  byComponent = /* @__PURE__ */ new Map();
  lastEpoch = -1;
  /** The group of component `component` in epoch `epoch`, created with `members` on first use. */
  groupOf(epoch, component, members) {
    if (epoch !== this.lastEpoch) {
      this.byComponent.clear();
      this.lastEpoch = epoch;
    }
    let group = this.byComponent.get(component);
    if (group === void 0) {
      group = new HolderGroup(this.size, this.groups.length);
      for (const m of members()) group.members[m] = 1;
      this.groups.push(group);
      this.byComponent.set(component, group);
    }
    return group;
  }
  /**
   * Syncs over `pairs` at once (each [puller, peer]: the puller receives what the peer held before
   * any of these syncs); calls `gained` for each node added to a group.
   */
  sync(pairs, gained) {
    for (const group of this.groups) {
      const added = [];
      for (const [puller, peer] of pairs) {
        if (group.members[peer] === 1 && group.members[puller] !== 1) added.push(puller);
      }
      for (const node of added) {
        if (group.members[node] === 1) continue;
        group.members[node] = 1;
        gained(group, node);
      }
    }
  }
};

// src/sim/model/links.ts
var GOSSIPSUB = {
  /** Target mesh degree. */
  D: 6,
  /** Below this many mesh peers a node grafts at its heartbeat. */
  Dlo: 4,
  /** Above this many it prunes back to D. */
  Dhi: 12,
  /** Non-mesh peers an IHAVE goes to at each heartbeat. */
  Dlazy: 6,
  /** src/net's heartbeatIntervalMs default. */
  heartbeatMs: 1e3,
  /** Heartbeats a message id stays in IHAVE gossip (mcacheGossip). */
  historyGossip: 3
};
var HOP_PROCESSING_MS = 0.2;
var SYNC_ROUND_TRIPS = 3;
var LinkModel = class {
  constructor(scenario2, random) {
    this.random = random;
    const { latencyMs, jitterMs, lossPercent } = scenario2.network;
    this.latency = latencyMs;
    this.jitter = jitterMs;
    this.loss = Math.min(1, Math.max(0, lossPercent / 100));
    this.rto = retransmissionTimeoutMs({ latencyMs, jitterMs });
    this.rtt = 2 * latencyMs;
  }
  random;
  latency;
  jitter;
  loss;
  rto;
  rtt;
  /** One transmission of `bytes` over one link, ms. */
  oneWay(bytes2) {
    let delay = this.latency;
    if (this.jitter > 0) delay = Math.max(0, delay + (2 * this.random.next() - 1) * this.jitter);
    if (this.loss > 0) delay += retransmissionDelayMs(Math.max(1, Math.ceil(bytes2 / SEGMENT_BYTES)), this.loss, this.rto, this.rtt, this.random.next);
    return delay;
  }
  /**
   * A message's delay over a path of `hops` hops, `repairs` of which were IHAVE/IWANT repairs: each
   * hop a transmission and a validation, each repair a wait for the holder's heartbeat (its phase is
   * uniform) and two small control messages more.
   */
  path(hops, repairs, bytes2) {
    let total = 0;
    for (let h = 0; h < hops; h++) total += this.oneWay(bytes2) + HOP_PROCESSING_MS;
    for (let r = 0; r < repairs; r++) total += this.random.next() * GOSSIPSUB.heartbeatMs + this.oneWay(64) + this.oneWay(64);
    return total;
  }
  /** A reconnection and its sync catch-up, until the missed records are stored. */
  sync(bytes2) {
    let total = 0;
    for (let i = 0; i < 2 * SYNC_ROUND_TRIPS - 1; i++) total += this.oneWay(64);
    return total + this.oneWay(bytes2) + HOP_PROCESSING_MS;
  }
};

// src/sim/model/queue.ts
var INITIAL_CAPACITY = 1024;
var EventQueue = class {
  times = new Float64Array(INITIAL_CAPACITY);
  seqs = new Float64Array(INITIAL_CAPACITY);
  kinds = new Uint8Array(INITIAL_CAPACITY);
  as = new Int32Array(INITIAL_CAPACITY);
  bs = new Int32Array(INITIAL_CAPACITY);
  count = 0;
  nextSeq = 0;
  /** Events taken off the queue so far. */
  processed = 0;
  get size() {
    return this.count;
  }
  push(time, kind, a = 0, b = 0) {
    if (!Number.isFinite(time)) throw new RangeError(`event time ${time} is not finite`);
    if (this.count === this.times.length) this.grow();
    let i = this.count++;
    const seq = this.nextSeq++;
    while (i > 0) {
      const parent = i - 1 >> 1;
      if (this.slotBefore(parent, time, seq)) break;
      this.move(parent, i);
      i = parent;
    }
    this.set(i, time, seq, kind, a, b);
  }
  /** The earliest event, removed; undefined when the queue is empty. `into` is reused when given. */
  pop(into = { time: 0, kind: 0, a: 0, b: 0 }) {
    if (this.count === 0) return void 0;
    into.time = this.times[0];
    into.kind = this.kinds[0];
    into.a = this.as[0];
    into.b = this.bs[0];
    this.processed++;
    const last = --this.count;
    if (last > 0) {
      const time = this.times[last];
      const seq = this.seqs[last];
      const kind = this.kinds[last];
      const a = this.as[last];
      const b = this.bs[last];
      let i = 0;
      for (; ; ) {
        const left = 2 * i + 1;
        if (left >= last) break;
        const right = left + 1;
        const child = right < last && this.slotBefore(right, this.times[left], this.seqs[left]) ? right : left;
        if (!this.slotBefore(child, time, seq)) break;
        this.move(child, i);
        i = child;
      }
      this.set(i, time, seq, kind, a, b);
    }
    return into;
  }
  /** Whether the event in `slot` comes before (time, seq). */
  slotBefore(slot, time, seq) {
    const t = this.times[slot];
    return t < time || t === time && this.seqs[slot] < seq;
  }
  move(from, to) {
    this.times[to] = this.times[from];
    this.seqs[to] = this.seqs[from];
    this.kinds[to] = this.kinds[from];
    this.as[to] = this.as[from];
    this.bs[to] = this.bs[from];
  }
  set(i, time, seq, kind, a, b) {
    this.times[i] = time;
    this.seqs[i] = seq;
    this.kinds[i] = kind;
    this.as[i] = a;
    this.bs[i] = b;
  }
  grow() {
    const capacity = this.times.length * 2;
    const grown2 = (array, make) => {
      const next = new make(capacity);
      next.set(array);
      return next;
    };
    this.times = grown2(this.times, Float64Array);
    this.seqs = grown2(this.seqs, Float64Array);
    this.kinds = grown2(this.kinds, Uint8Array);
    this.as = grown2(this.as, Int32Array);
    this.bs = grown2(this.bs, Int32Array);
  }
};

// src/sim/model/random.ts
function mix(seed2, stream) {
  let h = (seed2 ^ Math.imul(stream + 1, 2654435761)) >>> 0;
  h = Math.imul(h ^ h >>> 16, 2246822507);
  h = Math.imul(h ^ h >>> 13, 3266489909);
  return (h ^ h >>> 16) >>> 0;
}
function createFastRandom(seed2, stream) {
  let a = mix(seed2, stream);
  let b = mix(seed2, stream + 4096);
  let c = mix(seed2, stream + 8192);
  let d = 1;
  const next = () => {
    const t = (a + b | 0) + d | 0;
    d = d + 1 | 0;
    a = b ^ b >>> 9;
    b = c + (c << 3) | 0;
    c = c << 21 | c >>> 11;
    c = c + t | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return { next };
}

// src/sim/model/records.ts
import { createHash, createPrivateKey, createPublicKey as createPublicKey2, sign as sign2 } from "node:crypto";
var PKCS8_ED25519_PREFIX = Uint8Array.from([48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32]);
var SPKI_ED25519_PREFIX_BYTES = 12;
var CONFIDENCE = 0.8;
function agentSeedOf(seed2, index) {
  return new Uint8Array(createHash("sha256").update(`isnad-sim-model-agent|${seed2}|${index}`).digest());
}
function agentsOf(seed2, count3) {
  return Array.from({ length: count3 }, (_, i) => {
    const keySeed = agentSeedOf(seed2, i);
    const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, keySeed]), format: "der", type: "pkcs8" });
    const spki = createPublicKey2(key).export({ format: "der", type: "spki" });
    return { did: encodeDidKey(new Uint8Array(spki.subarray(SPKI_ED25519_PREFIX_BYTES))), key };
  });
}
function signed(record, agent) {
  const parsed = SCHEMAS_BY_KIND[record.kind].safeParse(record);
  if (!parsed.success) throw schemaError(parsed.error, record.kind);
  const cid = recordCidOf(record);
  const signature = sign2(null, signingInputFor(record.kind, cid), agent.key);
  return { id: cid.toString(), bytes: encodeSignedRecord({ record, signature: encodeSignature(signature) }) };
}
function memoryRecord(agent, scenario2, serial, at) {
  const summary = `simulated memory ${serial} of ${scenario2}`;
  return signed({
    kind: "memory",
    version: 1,
    content: { type: "observation", summary, body: summary, tags: ["sim", scenario2] },
    author: { agent_id: agent.did },
    created_at: at,
    context: { confidence: CONFIDENCE },
    lineage: { derived_from: [] }
  }, agent);
}
function witnessRequestRecord(agent, memory, witnesses, at) {
  const to = [...new Set(witnesses)];
  return signed({
    kind: "witness_request",
    version: 1,
    memory,
    requester: agent.did,
    ...to.length === 0 ? {} : { witnesses: to },
    created_at: at
  }, agent);
}
function attestationRecord(agent, memory, verdict, at) {
  return signed({
    kind: "attestation",
    version: 1,
    memory,
    witness: agent.did,
    attestation: verdict,
    witnessed_at: at
  }, agent);
}

// src/sim/model/topology.ts
var REPAIR = 1 << 12;
var UNREACHABLE = 2147483647;
function hopsOf(distance) {
  return distance % REPAIR;
}
function repairsOf(distance) {
  return Math.floor(distance / REPAIR);
}
var REJOIN_DIALS = 3;
function edgeKey(a, b, size) {
  return a < b ? a * size + b : b * size + a;
}
var ModelTopology = class {
  constructor(size, edges, random) {
    this.random = random;
    this.size = size;
    this.planned = edges;
    this.online = new Uint8Array(size).fill(1);
    this.meshDegree = new Int32Array(size);
    this.component = new Int32Array(size);
    this.scratch = new Int32Array(size);
    this.fifo = new Int32Array(size);
    this.fifoTo = new Int32Array(size);
    this.seenFrom = new Int32Array(size);
    this.seenTo = new Int32Array(size);
    this.depthFrom = new Int32Array(size);
    this.depthTo = new Int32Array(size);
    this.rebuild();
  }
  random;
  size;
  online;
  /** The side of the current cut each node is on; null without a partition. */
  side = null;
  epoch = 0;
  /** CSR adjacency of the current peer graph. */
  offsets = new Int32Array(1);
  peers = new Int32Array(0);
  /** Per adjacency slot: 1 when that link is in the mesh. */
  meshLink = new Uint8Array(0);
  meshDegree;
  /** Connected component of each online node in the peer graph; -1 offline. */
  component;
  components = 0;
  /** Whether the mesh alone connects every component (no message needs IHAVE repair). */
  meshSpans = true;
  planned;
  extra = [];
  mesh = /* @__PURE__ */ new Set();
  distances = /* @__PURE__ */ new Map();
  published = /* @__PURE__ */ new Map();
  /** Visit stamps of the two-sided search: a node is seen by the current search when its stamp is the search's. */
  seenFrom;
  seenTo;
  depthFrom;
  depthTo;
  fifoTo;
  stamp = 0;
  queue = new EventQueue();
  popped = { time: 0, kind: 0, a: 0, b: 0 };
  scratch;
  fifo;
  connected(a, b) {
    return this.online[a] === 1 && this.online[b] === 1 && this.component[a] === this.component[b];
  }
  /** Online peers of `node` in this epoch. */
  peersOf(node) {
    return this.peers.subarray(this.offsets[node], this.offsets[node + 1]);
  }
  /** A node coming back dials its planned neighbours; with none online on its side, a few others. */
  rejoin(node) {
    const sameSide = (j2) => this.side === null || this.side[j2] === this.side[node];
    const planned = this.planned.some(([a, b]) => a === node && this.online[b] === 1 && sameSide(b) || b === node && this.online[a] === 1 && sameSide(a));
    if (planned) return;
    let dialled = 0;
    for (let j2 = 0; j2 < this.size && dialled < REJOIN_DIALS; j2++) {
      if (j2 === node || this.online[j2] !== 1 || !sameSide(j2)) continue;
      this.extra.push([node, j2]);
      dialled++;
    }
  }
  /** A new epoch: the peer graph, mesh and components after the online set or the cut changed. */
  rebuild() {
    const { size } = this;
    const active = /* @__PURE__ */ new Set();
    const pairs = [];
    const sameSide = (a, b) => this.side === null || this.side[a] === this.side[b];
    for (const list of [this.planned, this.extra]) {
      for (const [a, b] of list) {
        if (this.online[a] !== 1 || this.online[b] !== 1 || !sameSide(a, b)) continue;
        const key = edgeKey(a, b, size);
        if (active.has(key)) continue;
        active.add(key);
        pairs.push([a, b]);
      }
    }
    const degree = new Int32Array(size + 1);
    for (const [a, b] of pairs) {
      degree[a]++;
      degree[b]++;
    }
    const offsets = new Int32Array(size + 1);
    for (let i = 0; i < size; i++) offsets[i + 1] = offsets[i] + degree[i];
    const fill = offsets.slice(0, size);
    const peers = new Int32Array(offsets[size]);
    for (const [a, b] of pairs) {
      peers[fill[a]++] = b;
      peers[fill[b]++] = a;
    }
    this.offsets = offsets;
    this.peers = peers;
    this.buildMesh(active);
    this.labelComponents();
    this.distances.clear();
    this.published.clear();
    this.epoch++;
  }
  buildMesh(active) {
    const { size } = this;
    const mesh = /* @__PURE__ */ new Set();
    for (const key of this.mesh) if (active.has(key)) mesh.add(key);
    const degree = new Int32Array(size);
    for (const key of mesh) {
      degree[Math.floor(key / size)]++;
      degree[key % size]++;
    }
    const order = this.shuffled(Array.from({ length: size }, (_, i) => i));
    for (const u of order) {
      if (degree[u] >= GOSSIPSUB.Dlo) continue;
      for (const v of this.shuffled([...this.peersOf(u)])) {
        if (degree[u] >= GOSSIPSUB.D) break;
        const key = edgeKey(u, v, size);
        if (mesh.has(key)) continue;
        mesh.add(key);
        degree[u]++;
        degree[v]++;
      }
    }
    for (const u of order) {
      if (degree[u] <= GOSSIPSUB.Dhi) continue;
      for (const v of this.shuffled([...this.peersOf(u)])) {
        if (degree[u] <= GOSSIPSUB.D) break;
        const key = edgeKey(u, v, size);
        if (!mesh.delete(key)) continue;
        degree[u]--;
        degree[v]--;
      }
    }
    this.mesh = mesh;
    this.meshDegree = degree;
    this.meshLink = new Uint8Array(this.peers.length);
    for (let u = 0; u < size; u++) {
      for (let s = this.offsets[u]; s < this.offsets[u + 1]; s++) {
        if (mesh.has(edgeKey(u, this.peers[s], size))) this.meshLink[s] = 1;
      }
    }
  }
  labelComponents() {
    const count3 = (meshOnly, label) => {
      label.fill(-1);
      let components = 0;
      for (let start = 0; start < this.size; start++) {
        if (this.online[start] !== 1 || label[start] !== -1) continue;
        let head = 0;
        let tail = 0;
        this.fifo[tail++] = start;
        label[start] = components;
        while (head < tail) {
          const u = this.fifo[head++];
          for (let s = this.offsets[u]; s < this.offsets[u + 1]; s++) {
            const v = this.peers[s];
            if (label[v] !== -1 || meshOnly && this.meshLink[s] !== 1) continue;
            label[v] = components;
            this.fifo[tail++] = v;
          }
        }
        components++;
      }
      return components;
    };
    this.components = count3(false, this.component);
    this.meshSpans = count3(true, this.scratch) === this.components;
  }
  /**
   * Distances to `target` from every node over this epoch's graph (undirected, so the same as from
   * `target`), computed once per epoch and target.
   */
  distancesTo(target) {
    let d = this.distances.get(target);
    if (d === void 0) {
      d = new Int32Array(this.size);
      this.search(target, false, d, null);
      this.distances.set(target, d);
    }
    return d;
  }
  /**
   * The distance a message published by `source` travels to `target`: the first hop goes straight to
   * every peer, mesh or not (flood publish), then the mesh. Per target, one pass over the graph per
   * epoch gives it from every source.
   */
  publishDistance(source, target) {
    if (source === target) return 0;
    if (!this.connected(source, target)) return UNREACHABLE;
    let flood = this.published.get(target);
    if (flood === void 0) {
      const d = this.distancesTo(target);
      flood = new Int32Array(this.size);
      for (let s = 0; s < this.size; s++) {
        let best = d[s];
        for (let k = this.offsets[s]; k < this.offsets[s + 1]; k++) {
          const via = d[this.peers[k]];
          if (via !== UNREACHABLE && via + 1 < best) best = via + 1;
        }
        flood[s] = best;
      }
      flood[target] = 0;
      this.published.set(target, flood);
    }
    return flood[source];
  }
  /** Distances from `source` (flood-published) to each of `targets`. */
  distancesFrom(source, targets) {
    if (this.meshSpans) return targets.map((t) => t === source ? 0 : this.connected(source, t) ? this.meetInTheMiddle(source, t) : UNREACHABLE);
    const wanted = targets.filter((t) => this.connected(source, t) && t !== source);
    if (wanted.length === 0) return targets.map((t) => t === source ? 0 : UNREACHABLE);
    this.search(source, true, this.scratch, wanted);
    return targets.map((t) => t === source ? 0 : this.connected(source, t) ? this.scratch[t] : UNREACHABLE);
  }
  /**
   * Hops from `source` (flood publish: its first hop reaches every peer) to `target` over the mesh,
   * for a mesh that spans its component: breadth-first from both ends, a level at a time on the
   * smaller side, until the two meet — a few hundred nodes visited rather than the whole network.
   */
  meetInTheMiddle(source, target) {
    const stamp = ++this.stamp;
    const { seenFrom, seenTo, depthFrom, depthTo, fifo, fifoTo, offsets, peers, meshLink } = this;
    let fromHead = 0;
    let fromTail = 0;
    let toHead = 0;
    let toTail = 0;
    seenFrom[source] = stamp;
    depthFrom[source] = 0;
    seenTo[target] = stamp;
    depthTo[target] = 0;
    fifoTo[toTail++] = target;
    for (let k = offsets[source]; k < offsets[source + 1]; k++) {
      const v = peers[k];
      if (v === target) return 1;
      seenFrom[v] = stamp;
      depthFrom[v] = 1;
      fifo[fromTail++] = v;
    }
    let best = UNREACHABLE;
    while (fromHead < fromTail && toHead < toTail) {
      const forward = fromTail - fromHead <= toTail - toHead;
      const queue = forward ? fifo : fifoTo;
      const seen = forward ? seenFrom : seenTo;
      const depth = forward ? depthFrom : depthTo;
      const other = forward ? seenTo : seenFrom;
      const otherDepth = forward ? depthTo : depthFrom;
      let head = forward ? fromHead : toHead;
      let tail = forward ? fromTail : toTail;
      const level = depth[queue[head]];
      while (head < tail && depth[queue[head]] === level) {
        const u = queue[head++];
        for (let k = offsets[u]; k < offsets[u + 1]; k++) {
          if (meshLink[k] !== 1) continue;
          const v = peers[k];
          if (other[v] === stamp) {
            const total = level + 1 + otherDepth[v];
            if (total < best) best = total;
          }
          if (seen[v] === stamp) continue;
          seen[v] = stamp;
          depth[v] = level + 1;
          queue[tail++] = v;
        }
      }
      if (forward) {
        fromHead = head;
        fromTail = tail;
      } else {
        toHead = head;
        toTail = tail;
      }
      if (best !== UNREACHABLE) return best;
    }
    return best;
  }
  /**
   * Shortest distances from `root` into `out` (UNREACHABLE where none); with `flood`, the root's
   * first hop reaches every peer as a plain hop. Stops early once every node of `stopAfter` is settled.
   * A breadth-first search when the mesh spans every component (no repair hop can be shorter), else
   * Dijkstra on the binary heap.
   */
  search(root, flood, out, stopAfter) {
    out.fill(UNREACHABLE);
    out[root] = 0;
    let remaining = stopAfter === null ? -1 : stopAfter.length;
    const wanted = stopAfter === null ? null : new Set(stopAfter);
    const settle2 = (v) => wanted !== null && wanted.has(v) && --remaining === 0;
    if (this.meshSpans) {
      let head = 0;
      let tail = 0;
      this.fifo[tail++] = root;
      while (head < tail) {
        const u = this.fifo[head++];
        if (settle2(u)) return;
        const next = out[u] + 1;
        const all = flood && u === root;
        for (let s = this.offsets[u]; s < this.offsets[u + 1]; s++) {
          const v = this.peers[s];
          if (out[v] !== UNREACHABLE || !all && this.meshLink[s] !== 1) continue;
          out[v] = next;
          this.fifo[tail++] = v;
        }
      }
      return;
    }
    const queue = this.queue;
    queue.push(0, 0, root);
    while (queue.size > 0) {
      const { time, a: u } = queue.pop(this.popped);
      if (time > out[u]) continue;
      if (settle2(u)) break;
      const all = flood && u === root;
      for (let s = this.offsets[u]; s < this.offsets[u + 1]; s++) {
        const v = this.peers[s];
        const next = time + 1 + (all || this.meshLink[s] === 1 ? 0 : REPAIR);
        if (next >= out[v]) continue;
        out[v] = next;
        queue.push(next, 0, v);
      }
    }
    while (queue.size > 0) queue.pop(this.popped);
  }
  shuffled(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j2 = Math.floor(this.random.next() * (i + 1));
      const t = items[i];
      items[i] = items[j2];
      items[j2] = t;
    }
    return items;
  }
};

// src/sim/model/engine.ts
var MODEL_EPOCH_MS = Date.UTC(2026, 0, 1);
var TRACKED_NODES = 256;
var INBOX_WAIT_REAL_S = 180;
var DRAIN_REAL_S = 120;
var EVENT = { memory: 1, answer: 2, topology: 3 };
function trackedNodes(plan2, size, seed2) {
  if (size <= TRACKED_NODES) return Array.from({ length: size }, (_, i) => i);
  const chosen = new Set(plan2.observers);
  const random = createFastRandom(seed2, 3);
  while (chosen.size < TRACKED_NODES) chosen.add(Math.floor(random.next() * size));
  return [...chosen].sort((a, b) => a - b);
}
function playModel(scenario2, plan2, progress) {
  const setupStart = performance2.now();
  const size = plan2.roles.length;
  const agents = agentsOf(scenario2.seed, size);
  const topology = new ModelTopology(size, plan2.edges, createFastRandom(scenario2.seed, 1));
  const links = new LinkModel(scenario2, createFastRandom(scenario2.seed, 2));
  const tracked = trackedNodes(plan2, size, scenario2.seed);
  const column = new Int32Array(size).fill(-1);
  tracked.forEach((node, j2) => {
    column[node] = j2;
  });
  const T2 = tracked.length;
  const M = plan2.memories.length;
  const slotStart = new Int32Array(M + 1);
  plan2.memories.forEach((m, i) => {
    slotStart[i + 1] = slotStart[i] + m.answers.length;
  });
  const A = slotStart[M];
  const slotWitness = new Int32Array(A);
  const slotMemory = new Int32Array(A);
  plan2.memories.forEach((m, i) => m.answers.forEach((a, k) => {
    slotWitness[slotStart[i] + k] = a.witness;
    slotMemory[slotStart[i] + k] = i;
  }));
  const records = new Array(M + A);
  const publishedAt = new Float64Array(M + A).fill(Number.NaN);
  const arrivals = new Float32Array((M + A) * T2).fill(Number.NaN);
  const requestDistance = new Int32Array(A).fill(UNREACHABLE);
  const requestEpoch = new Int32Array(A);
  const requestDone = new Uint8Array(A);
  const holders = new Holders(size);
  const counters = { received: new Float64Array(T2), byGossip: new Float64Array(T2), bySync: new Float64Array(T2) };
  const run2 = {
    requestDelays: [],
    roundTrips: [],
    missedAnswers: 0,
    problems: /* @__PURE__ */ new Map(),
    notes: []
  };
  const msPerMinute = 6e4;
  const inboxWaitMs = INBOX_WAIT_REAL_S / scenario2.timeScale.realSecondsPerMinute * msPerMinute;
  const endMs = scenario2.durationMinutes * msPerMinute;
  const drainEndMs = endMs + DRAIN_REAL_S / scenario2.timeScale.realSecondsPerMinute * msPerMinute;
  const iso = (ms) => new Date(MODEL_EPOCH_MS + Math.round(ms)).toISOString();
  const setupSeconds = (performance2.now() - setupStart) / 1e3;
  const queue = new EventQueue();
  plan2.memories.forEach((m, i) => {
    queue.push(m.at * msPerMinute, EVENT.memory, i);
  });
  plan2.events.forEach((e, i) => {
    queue.push(e.at * msPerMinute, EVENT.topology, i);
  });
  const publish = (index, source, now2) => {
    publishedAt[index] = now2;
    const bytes2 = records[index].bytes.length;
    const component = topology.component[source];
    const group = holders.groupOf(topology.epoch, component, function* () {
      for (let v = 0; v < size; v++) if (topology.component[v] === component && topology.online[v] === 1) yield v;
    });
    group.messages.push(index);
    for (let j2 = 0; j2 < T2; j2++) {
      const node = tracked[j2];
      if (node === source) {
        arrivals[index * T2 + j2] = now2;
        continue;
      }
      const d = topology.publishDistance(source, node);
      if (d === UNREACHABLE) continue;
      arrivals[index * T2 + j2] = now2 + links.path(hopsOf(d), repairsOf(d), bytes2);
      counters.byGossip[j2] += 1;
      counters.received[j2] += Math.max(1, topology.meshDegree[node]);
    }
    return group;
  };
  const requestArrived = (slot, at) => {
    requestDone[slot] = 1;
    const memory = slotMemory[slot];
    const planned = plan2.memories[memory]?.answers[slot - slotStart[memory]];
    if (planned === void 0 || planned.verdict === null) return;
    run2.requestDelays.push(at - publishedAt[memory]);
    queue.push(at + planned.delayMinutes * msPerMinute, EVENT.answer, slot);
  };
  const playMemory = (serial, now2) => {
    const planned = plan2.memories[serial];
    if (planned === void 0) return;
    if (topology.online[planned.author] !== 1) {
      run2.problems.set(serial, "author offline");
      return;
    }
    const author = agents[planned.author];
    const memory = memoryRecord(author, scenario2.name, serial, iso(now2));
    records[serial] = memory;
    const group = publish(serial, planned.author, now2);
    if (planned.answers.length === 0) return;
    witnessRequestRecord(author, memory.id, planned.answers.map((a) => agents[a.witness].did), iso(now2));
    const witnesses = planned.answers.map((a) => a.witness);
    const distances = topology.distancesFrom(planned.author, witnesses);
    const bytes2 = memory.bytes.length;
    planned.answers.forEach((_, k) => {
      const slot = slotStart[serial] + k;
      const d = distances[k];
      requestDistance[slot] = d;
      requestEpoch[slot] = topology.epoch;
      if (d === UNREACHABLE) group.pending.push(slot);
      else requestArrived(slot, now2 + links.path(hopsOf(d), repairsOf(d), 2 * bytes2));
    });
  };
  const playAnswer = (slot, now2) => {
    const memory = slotMemory[slot];
    const planned = plan2.memories[memory];
    const answer = planned?.answers[slot - slotStart[memory]];
    if (planned === void 0 || answer === void 0 || answer.verdict === null) return;
    const witness = answer.witness;
    if (topology.online[witness] !== 1) {
      run2.missedAnswers++;
      return;
    }
    const memoryId = records[memory].id;
    const index = M + slot;
    records[index] = attestationRecord(agents[witness], memoryId, answer.verdict, iso(now2));
    publish(index, witness, now2);
    if (topology.online[planned.author] !== 1) return;
    let d = requestEpoch[slot] === topology.epoch ? requestDistance[slot] : UNREACHABLE;
    if (d === UNREACHABLE) d = topology.distancesFrom(witness, [planned.author])[0];
    if (d === UNREACHABLE) return;
    const back = now2 + links.path(hopsOf(d), repairsOf(d), records[index].bytes.length);
    run2.roundTrips.push(back - publishedAt[memory]);
  };
  const sync = (pairs, now2) => {
    holders.sync(pairs, (group, node) => {
      const j2 = column[node];
      if (j2 >= 0) {
        for (const index of group.messages) {
          if (!Number.isNaN(arrivals[index * T2 + j2])) continue;
          arrivals[index * T2 + j2] = now2 + links.sync(records[index].bytes.length);
          counters.bySync[j2] += 1;
        }
      }
      if (group.pending.length === 0) return;
      group.pending = group.pending.filter((slot) => {
        if (slotWitness[slot] !== node) return true;
        const memory = slotMemory[slot];
        if (now2 <= publishedAt[memory] + inboxWaitMs) requestArrived(slot, now2 + links.sync(1024));
        return false;
      });
    });
  };
  const bothWays = (pairs) => pairs.flatMap(([a, b]) => [[a, b], [b, a]]);
  const applyEvent = (event2, now2) => {
    switch (event2.kind) {
      case "leave":
        for (const n of event2.nodes) topology.online[n] = 0;
        topology.rebuild();
        return;
      case "join": {
        for (const n of event2.nodes) topology.online[n] = 1;
        for (const n of event2.nodes) topology.rejoin(n);
        topology.rebuild();
        sync(bothWays(event2.nodes.flatMap((n) => [...topology.peersOf(n)].map((p) => [n, p]))), now2);
        return;
      }
      case "partition":
        topology.side = new Uint8Array(size);
        for (const n of event2.side) topology.side[n] = 1;
        topology.rebuild();
        return;
      case "heal":
        heal(now2);
    }
  };
  const heal = (now2) => {
    const cut = topology.side;
    if (cut === null) return;
    topology.side = null;
    topology.rebuild();
    const across = [];
    for (let u = 0; u < size; u++) for (const v of topology.peersOf(u)) if (u < v && cut[u] !== cut[v]) across.push([u, v]);
    sync(bothWays(across), now2);
  };
  progress(`model: playing ${M} memories and ${plan2.events.length} network events over ${scenario2.durationMinutes} simulated minutes (${size} nodes, ${T2} tracked)`);
  const activityStart = performance2.now();
  const event = { time: 0, kind: 0, a: 0, b: 0 };
  let lastReport = activityStart;
  let last = 0;
  while (queue.pop(event) !== void 0) {
    if (event.time > drainEndMs) {
      if (event.kind === EVENT.answer) run2.missedAnswers++;
      continue;
    }
    last = event.time;
    if (event.kind === EVENT.memory) playMemory(event.a, event.time);
    else if (event.kind === EVENT.answer) playAnswer(event.a, event.time);
    else applyEvent(plan2.events[event.a], event.time);
    if (performance2.now() - lastReport > 5e3) {
      lastReport = performance2.now();
      progress(`model: minute ${(event.time / msPerMinute).toFixed(1)}/${scenario2.durationMinutes}, ${queue.processed} events`);
    }
  }
  for (let slot = 0; slot < A; slot++) {
    const memory = slotMemory[slot];
    const answer = plan2.memories[memory]?.answers[slot - slotStart[memory]];
    if (requestDone[slot] !== 1 && answer?.verdict !== null && answer?.verdict !== void 0 && !Number.isNaN(publishedAt[memory])) run2.missedAnswers++;
  }
  const settleAt = Math.max(last, endMs);
  heal(settleAt);
  sync(plan2.observers.filter((o) => topology.online[o] === 1).flatMap((o) => [...topology.peersOf(o)].map((p) => [o, p])), settleAt);
  let measuredAt = settleAt;
  for (const value of arrivals) if (value > measuredAt) measuredAt = value;
  return {
    plan: plan2,
    agents,
    tracked,
    records,
    publishedAt,
    arrivals,
    memoryCount: M,
    slotWitness,
    slotMemory,
    requestDelays: run2.requestDelays,
    roundTrips: run2.roundTrips,
    missedAnswers: run2.missedAnswers,
    problems: run2.problems,
    onlineAtEnd: topology.online.slice(),
    measuredAt: Math.ceil(measuredAt) + 1,
    counters,
    timings: { setupSeconds, activitySeconds: (performance2.now() - activityStart) / 1e3 },
    events: queue.processed,
    notes: run2.notes
  };
}

// src/reputation/constants.ts
var DEFAULT_DAMPING = 0.85;
var DEFAULT_TOLERANCE = 1e-10;
var DEFAULT_MAX_ITERATIONS = 300;
var VOTE_WEIGHTS = Object.freeze({ confirm: 1, partial: 0.5, dispute: -1 });
var UNROOTED_REPUTATION = 0.5;
var AGREEMENT_WEIGHT = Number(process.env.ISNAD_AW ?? 1);
var CONTRADICTION_WEIGHT = 3;
var REFERENCE_MASS_SHARE = Number(process.env.ISNAD_Q ?? 0.5);
var ACKNOWLEDGE_WEIGHT = Number(process.env.ISNAD_ACK ?? 1);

// src/reputation/vote-set.ts
var MAX_GRAPH_AGENTS = 2 ** 24;
var ACKNOWLEDGE_CODE = 3;
var VERDICT_CODES = Object.freeze({ confirm: 0, partial: 1, dispute: 2 });
var VoteSet = class {
  constructor(identities) {
    this.identities = identities;
  }
  identities;
  /** Graph node names: identities (a key a resolver maps to an identity is interned as that identity). */
  agents = [];
  /** Every DID seen (keys and identities) → its graph node · 2, plus 1 when a key log names the DID. */
  seen = /* @__PURE__ */ new Map();
  keyBuffer = new Float64Array(1024);
  length = 0;
  /**
   * The DID's entry: its graph node (its identity's when the resolver names one) · 2, plus 1 when a
   * key log names the DID (its signatures must then be checked against the log's times). Interned on
   * first sight, so the resolver is asked once per DID, never per vote.
   */
  entry(did) {
    const known = this.seen.get(did);
    if (known !== void 0) return known;
    const identity = this.identities?.identityOf(did) ?? did;
    let node = this.nodes.get(identity);
    if (node === void 0) {
      node = this.agents.length;
      if (node >= MAX_GRAPH_AGENTS) throw new IsnadError("USAGE", `more than ${MAX_GRAPH_AGENTS} agents in one reputation graph`);
      this.agents.push(identity);
      this.nodes.set(identity, node);
    }
    const value = node * 2 + (this.identities?.named(did) === true ? 1 : 0);
    this.seen.set(did, value);
    return value;
  }
  /** The graph node of a DID, interned on first sight. */
  agent(did) {
    return this.entry(did) >>> 1;
  }
  /** Whether `did` (a key or identity seen before) could sign at `at` by its key log; true when no log names it. */
  couldSign(did, entry, at) {
    return (entry & 1) === 0 || this.identities?.refusalAt(did, at) === void 0;
  }
  /** The identity a DID votes as (itself without a resolver, or when no key log names it). */
  identityOf(did) {
    return this.identities?.identityOf(did) ?? did;
  }
  /** Graph nodes by identity name (what `describe` and the roots look up). */
  nodes = /* @__PURE__ */ new Map();
  /** One counted vote by graph nodes; a node never witnesses itself (DESIGN §2), so that vote is dropped. */
  add(witness, author, verdict) {
    if (witness === author) return;
    if (this.length === this.keyBuffer.length) {
      const grown2 = new Float64Array(this.keyBuffer.length * 2);
      grown2.set(this.keyBuffer);
      this.keyBuffer = grown2;
    }
    this.keyBuffer[this.length++] = (witness * MAX_GRAPH_AGENTS + author) * 4 + verdict;
  }
  /*
   * Claims (issue 18): the agents that gave one verdict on one memory, side by side. Agents who made
   * the same claim agree; a claim and another verdict on the same memory contradict. Kept as flat
   * growable arrays: claim k's members are claimMembers[claimStarts[k] … claimStarts[k+1]), and the
   * claims of one memory are consecutive (claimMemory tells where a memory's claims end).
   */
  members = new Int32Array(1024);
  memberCount = 0;
  starts = new Int32Array(256);
  verdicts = new Uint8Array(256);
  memoryOf = new Int32Array(256);
  claimCount = 0;
  /** One claim: `count` graph nodes of `nodes` gave `verdict` (a VERDICT_CODES value) on memory `memory` (an ordinal). */
  claim(memory, verdict, nodes, count3) {
    if (count3 === 0) return;
    if (this.claimCount + 1 >= this.starts.length) {
      this.starts = grownInt(this.starts, this.starts.length * 2);
      this.memoryOf = grownInt(this.memoryOf, this.memoryOf.length * 2);
      const verdicts = new Uint8Array(this.verdicts.length * 2);
      verdicts.set(this.verdicts);
      this.verdicts = verdicts;
    }
    if (this.memberCount + count3 > this.members.length) this.members = grownInt(this.members, Math.max(this.members.length * 2, this.memberCount + count3));
    this.starts[this.claimCount] = this.memberCount;
    this.verdicts[this.claimCount] = verdict;
    this.memoryOf[this.claimCount] = memory;
    for (let i = 0; i < count3; i++) this.members[this.memberCount++] = nodes[i];
    this.claimCount++;
    this.starts[this.claimCount] = this.memberCount;
  }
  /** The claims recorded: offsets (claims + 1), members, verdict codes and memory ordinals. */
  claims() {
    const offsets = this.starts.slice(0, this.claimCount + 1);
    if (this.claimCount === 0) offsets[0] = 0;
    return {
      offsets,
      members: this.members.slice(0, this.memberCount),
      verdicts: this.verdicts.slice(0, this.claimCount),
      memories: this.memoryOf.slice(0, this.claimCount)
    };
  }
  /** The vote keys, sorted: each witness's row in order, one pair's votes side by side. */
  sortedKeys() {
    return this.keyBuffer.subarray(0, this.length).sort();
  }
};
function grownInt(array, size) {
  const next = new Int32Array(size);
  next.set(array);
  return next;
}

// src/reputation/graph.ts
var CODE_WEIGHTS = [VOTE_WEIGHTS.confirm, VOTE_WEIGHTS.partial, VOTE_WEIGHTS.dispute];
function buildTrustGraph(votes, agents = []) {
  let set;
  if (votes instanceof VoteSet) {
    set = votes;
    for (const did of agents) set.agent(did);
  } else {
    set = new VoteSet();
    for (const did of agents) set.agent(did);
    let memory = 0;
    for (const group of votes) {
      const author = set.agent(group.author);
      for (const vote of group.votes) {
        const witness = set.agent(vote.witness);
        set.add(witness, author, VERDICT_CODES[vote.verdict]);
        if (vote.verdict === "confirm") set.add(author, witness, ACKNOWLEDGE_CODE);
      }
      memory++;
      for (let verdict = 0; verdict < 3; verdict++) {
        const members = group.votes.filter((v) => VERDICT_CODES[v.verdict] === verdict).map((v) => set.agent(v.witness)).filter((m) => m !== author);
        set.claim(memory, verdict, members, members.length);
      }
    }
  }
  const keys2 = set.sortedKeys();
  const names = set.agents;
  const index = set.nodes;
  const n = names.length;
  const offsets = new Int32Array(n + 1);
  const targets = new Int32Array(keys2.length);
  const strengths = new Float64Array(keys2.length);
  const walkStrengths = new Float64Array(keys2.length);
  let edges = 0;
  let k = 0;
  while (k < keys2.length) {
    const pair = Math.floor(keys2[k] / 4);
    let sum = 0;
    let acknowledged = 0;
    for (; k < keys2.length && Math.floor(keys2[k] / 4) === pair; k++) {
      const code2 = keys2[k] % 4;
      if (code2 === ACKNOWLEDGE_CODE) acknowledged += ACKNOWLEDGE_WEIGHT;
      else sum += CODE_WEIGHTS[code2];
    }
    const endorsement = Math.max(0, sum);
    if (endorsement + acknowledged === 0) continue;
    const from = Math.floor(pair / MAX_GRAPH_AGENTS);
    targets[edges] = pair - from * MAX_GRAPH_AGENTS;
    strengths[edges] = endorsement;
    walkStrengths[edges] = endorsement + acknowledged;
    edges++;
    offsets[from + 1] = edges;
  }
  for (let i = 1; i <= n; i++) if (offsets[i] < offsets[i - 1]) offsets[i] = offsets[i - 1];
  const claims = set.claims();
  const { agentClaimOffsets, agentClaims } = membershipsOf(claims, n);
  const outWeight = new Float64Array(n);
  const weights = new Float64Array(edges);
  for (let i = 0; i < n; i++) {
    let total = AGREEMENT_WEIGHT * (agentClaimOffsets[i + 1] - agentClaimOffsets[i]);
    for (let e = offsets[i]; e < offsets[i + 1]; e++) total += walkStrengths[e];
    outWeight[i] = total;
    for (let e = offsets[i]; e < offsets[i + 1]; e++) weights[e] = walkStrengths[e] / total;
  }
  return {
    agents: names,
    index,
    offsets,
    targets: targets.slice(0, edges),
    weights,
    strengths: strengths.slice(0, edges),
    outWeight,
    claims,
    agentClaimOffsets,
    agentClaims
  };
}
function membershipsOf(claims, n) {
  const { offsets, members } = claims;
  const claimCount = offsets.length - 1;
  const agentClaimOffsets = new Int32Array(n + 1);
  for (let c = 0; c < claimCount; c++) {
    if (offsets[c + 1] - offsets[c] < 2) continue;
    for (let k = offsets[c]; k < offsets[c + 1]; k++) {
      const slotOf = members[k] + 1;
      agentClaimOffsets[slotOf] = agentClaimOffsets[slotOf] + 1;
    }
  }
  for (let i = 0; i < n; i++) agentClaimOffsets[i + 1] = agentClaimOffsets[i + 1] + agentClaimOffsets[i];
  const agentClaims = new Int32Array(agentClaimOffsets[n]);
  const fill = agentClaimOffsets.slice(0, n);
  for (let c = 0; c < claimCount; c++) {
    if (offsets[c + 1] - offsets[c] < 2) continue;
    for (let k = offsets[c]; k < offsets[c + 1]; k++) {
      const m = members[k];
      agentClaims[fill[m]] = c;
      fill[m] = fill[m] + 1;
    }
  }
  return { agentClaimOffsets, agentClaims };
}

// src/reputation/pagerank.ts
function personalizedPageRank(graph, roots2, options = {}) {
  const n = graph.agents.length;
  const d = options.damping ?? DEFAULT_DAMPING;
  if (!(d > 0 && d < 1)) throw new IsnadError("USAGE", `damping must be in (0, 1), got ${d}`);
  if (roots2.length === 0) throw new IsnadError("USAGE", "personalised PageRank needs at least one root");
  const teleport = new Float64Array(n);
  for (const r of roots2) {
    if (!(r >= 0 && r < n)) throw new IsnadError("USAGE", `root index ${r} is not an agent of the graph`);
    teleport[r] = 1;
  }
  let rootCount = 0;
  for (let i = 0; i < n; i++) rootCount += teleport[i];
  for (let i = 0; i < n; i++) teleport[i] = teleport[i] / rootCount;
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  let rank = options.initial?.length === n ? Float64Array.from(options.initial) : Float64Array.from(teleport);
  let next = new Float64Array(n);
  const { offsets, targets, weights, outWeight, claims, agentClaimOffsets } = graph;
  const { agentPass, claimPass } = options;
  const claimCount = claims.offsets.length - 1;
  const sent = new Float64Array(n);
  let iterations = 0;
  let residual = Infinity;
  while (iterations < maxIterations && residual > tolerance) {
    next.fill(0);
    let dangling = 0;
    for (let u = 0; u < n; u++) {
      const mass = rank[u];
      sent[u] = 0;
      if (mass === 0) continue;
      const total = outWeight[u];
      if (total === 0) {
        dangling += mass;
        continue;
      }
      const pass = agentPass === void 0 ? 1 : agentPass[u];
      dangling += mass * (1 - pass);
      const share2 = d * mass * pass;
      for (let e = offsets[u]; e < offsets[u + 1]; e++) {
        const v = targets[e];
        next[v] = next[v] + share2 * weights[e];
      }
      if (agentClaimOffsets[u + 1] > agentClaimOffsets[u]) sent[u] = share2 * AGREEMENT_WEIGHT / total;
    }
    for (let c = 0; c < claimCount; c++) {
      const start = claims.offsets[c];
      const end = claims.offsets[c + 1];
      const size = end - start;
      if (size < 2) continue;
      let sum = 0;
      for (let k = start; k < end; k++) sum += sent[claims.members[k]];
      if (sum === 0) continue;
      const pass = claimPass === void 0 ? 1 : claimPass[c];
      if (pass < 1) dangling += sum * (1 - pass) / d;
      for (let k = start; k < end; k++) {
        const v = claims.members[k];
        next[v] = next[v] + pass * (sum - sent[v]) / (size - 1);
      }
    }
    const back = 1 - d + d * dangling;
    residual = 0;
    for (let i = 0; i < n; i++) {
      const value = next[i] + back * teleport[i];
      next[i] = value;
      residual += Math.abs(value - rank[i]);
    }
    const swap = rank;
    rank = next;
    next = swap;
    iterations++;
  }
  return { rank, iterations, residual };
}

// src/reputation/paths.ts
function shortestPathsFrom(graph, roots2) {
  const parents = new Int32Array(graph.agents.length).fill(-1);
  const queue = new Int32Array(graph.agents.length);
  let head = 0;
  let tail = 0;
  for (const r of roots2) {
    if (parents[r] !== -1) continue;
    parents[r] = r;
    queue[tail++] = r;
  }
  while (head < tail) {
    const u = queue[head++];
    for (let e = graph.offsets[u]; e < graph.offsets[u + 1]; e++) {
      const v = graph.targets[e];
      if (parents[v] !== -1) continue;
      parents[v] = u;
      queue[tail++] = v;
    }
    const { claims } = graph;
    for (let k = graph.agentClaimOffsets[u]; k < graph.agentClaimOffsets[u + 1]; k++) {
      const c = graph.agentClaims[k];
      for (let m = claims.offsets[c]; m < claims.offsets[c + 1]; m++) {
        const v = claims.members[m];
        if (parents[v] !== -1) continue;
        parents[v] = u;
        queue[tail++] = v;
      }
    }
  }
  return parents;
}

// src/reputation/reputation.ts
function reputationOfRank(rank, reference) {
  return Math.min(1, rank / reference);
}
function computeReputation(votes, roots2, options = {}) {
  const identityOf = votes instanceof VoteSet ? (did) => votes.identityOf(did) : (did) => did;
  const uniqueRoots = [...new Set(roots2.map(identityOf))].sort();
  const graph = buildTrustGraph(votes, uniqueRoots);
  const damping = options.damping ?? DEFAULT_DAMPING;
  if (uniqueRoots.length === 0) {
    return {
      rooted: false,
      roots: [],
      damping,
      iterations: 0,
      graph,
      rank: new Float64Array(graph.agents.length),
      lookup: () => UNROOTED_REPUTATION,
      endorses: (from, to) => vouches(graph, graph.index.get(identityOf(from)), graph.index.get(identityOf(to))),
      describe: (did) => ({ did, reputation: UNROOTED_REPUTATION, rank: 0, root: false, path: null })
    };
  }
  const rootIndexes = uniqueRoots.map((did) => graph.index.get(did));
  const first = personalizedPageRank(graph, rootIndexes, { ...options, damping });
  const standing1 = standingOf(first.rank, rootIndexes);
  const round1 = agreementOf(graph, standing1);
  const agentPass = new Float64Array(graph.agents.length);
  for (let i = 0; i < agentPass.length; i++) agentPass[i] = debitFactor(round1.agreed[i], round1.contradicted[i]);
  const second = personalizedPageRank(graph, rootIndexes, { ...options, damping, initial: first.rank, agentPass, claimPass: round1.claimPass });
  const { rank } = second;
  const iterations = first.iterations + second.iterations;
  const standing = standingOf(rank, rootIndexes);
  const { agreed, contradicted } = agreementOf(graph, standing);
  const final = new Float64Array(standing.length);
  for (let i = 0; i < final.length; i++) final[i] = standing[i] * debitFactor(agreed[i], contradicted[i]);
  for (const r of rootIndexes) final[r] = 1;
  const rootSet = new Set(uniqueRoots);
  let parents;
  const lookup = (key) => {
    const did = identityOf(key);
    if (rootSet.has(did)) return 1;
    const i = graph.index.get(did);
    return i === void 0 ? 0 : final[i];
  };
  return {
    rooted: true,
    roots: uniqueRoots,
    damping,
    iterations,
    graph,
    rank,
    lookup,
    endorses: (from, to) => vouches(graph, graph.index.get(identityOf(from)), graph.index.get(identityOf(to))),
    describe(did) {
      const i = graph.index.get(identityOf(did));
      parents ??= shortestPathsFrom(graph, rootIndexes);
      return {
        did,
        reputation: lookup(did),
        rank: i === void 0 ? 0 : rank[i],
        root: rootSet.has(identityOf(did)),
        path: i === void 0 ? null : pathTo(graph, parents, i),
        ...i === void 0 || rootSet.has(identityOf(did)) ? {} : { agreement: { agreed: Math.max(0, agreed[i]), contradicted: contradicted[i], factor: debitFactor(agreed[i], contradicted[i]) } }
      };
    }
  };
}
function vouches(graph, u, v) {
  if (u === void 0 || v === void 0 || u === v) return false;
  if (hasEdge(graph, u, v)) return true;
  for (let e = graph.offsets[u]; e < graph.offsets[u + 1]; e++) {
    if (graph.strengths[e] > 0 && hasEdge(graph, graph.targets[e], v)) return true;
  }
  return false;
}
function hasEdge(graph, u, v) {
  let lo = graph.offsets[u];
  let hi = graph.offsets[u + 1] - 1;
  while (lo <= hi) {
    const mid = lo + hi >>> 1;
    const t = graph.targets[mid];
    if (t === v) return graph.strengths[mid] > 0;
    if (t < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
function standingOf(rank, rootIndexes) {
  const standing = new Float64Array(rank.length);
  const reference = referenceRankOf(rank, rootIndexes);
  for (let i = 0; i < standing.length; i++) standing[i] = reputationOfRank(rank[i], reference);
  for (const r of rootIndexes) standing[r] = 1;
  return standing;
}
function referenceRankOf(rank, rootIndexes) {
  const isRoot = new Uint8Array(rank.length);
  for (const r of rootIndexes) isRoot[r] = 1;
  let count3 = 0;
  for (let i = 0; i < rank.length; i++) if (isRoot[i] === 0 && rank[i] > 0) count3++;
  if (count3 === 0) return Infinity;
  const ranks = new Float64Array(count3);
  let total = 0;
  count3 = 0;
  for (let i = 0; i < rank.length; i++) {
    const r = rank[i];
    if (isRoot[i] === 0 && r > 0) {
      ranks[count3++] = r;
      total += r;
    }
  }
  ranks.sort();
  let held = 0;
  for (let k = ranks.length - 1; k >= 0; k--) {
    held += ranks[k];
    if (held >= total * REFERENCE_MASS_SHARE) return ranks[k];
  }
  return ranks[0];
}
var VERDICT_POSITION = [1, 0.5, 0];
function agreementOf(graph, standing) {
  const n = graph.agents.length;
  const agreed = new Float64Array(n);
  const contradicted = new Float64Array(n);
  const { offsets, members, verdicts, memories: memories2 } = graph.claims;
  const claimCount = offsets.length - 1;
  const claimPass = new Float64Array(claimCount);
  const sums = [0, 0, 0];
  let first = 0;
  while (first < claimCount) {
    let last = first;
    while (last + 1 < claimCount && memories2[last + 1] === memories2[first]) last++;
    sums[0] = sums[1] = sums[2] = 0;
    for (let c = first; c <= last; c++) {
      let sum = 0;
      for (let k = offsets[c]; k < offsets[c + 1]; k++) sum += standing[members[k]];
      sums[verdicts[c]] = sum;
    }
    for (let c = first; c <= last; c++) {
      const x = VERDICT_POSITION[verdicts[c]];
      let a = 0;
      let contra = 0;
      for (let y = 0; y < 3; y++) {
        const distance = Math.abs(x - VERDICT_POSITION[y]);
        a += sums[y] * (1 - distance);
        contra += sums[y] * distance;
      }
      claimPass[c] = debitFactor(sums[verdicts[c]], contra);
      for (let k = offsets[c]; k < offsets[c + 1]; k++) {
        const v = members[k];
        agreed[v] = agreed[v] + a - standing[v];
        contradicted[v] = contradicted[v] + contra;
      }
    }
    first = last + 1;
  }
  return { agreed, contradicted, claimPass };
}
function debitFactor(agreed, contradicted) {
  const a = Math.max(0, agreed);
  if (contradicted <= 0) return 1;
  return a / (a + CONTRADICTION_WEIGHT * contradicted);
}
function pathTo(graph, parents, target) {
  if (parents[target] === -1) return null;
  const path2 = [];
  for (let i = target; ; i = parents[i]) {
    path2.push(graph.agents[i]);
    if (parents[i] === i) break;
  }
  return path2.reverse();
}
function trustInputsOf(table2) {
  return { reputation: table2.lookup, endorses: table2.endorses, rooted: table2.rooted };
}

// src/reputation/votes.ts
function collectVotes(memories2, identities) {
  const set = new VoteSet(identities);
  let stamp = new Int32Array(1024);
  let slot = new Int32Array(1024);
  const chosen = [];
  let chosenNodes = new Int32Array(64);
  let claimNodes = new Int32Array(64);
  let ordinal = 0;
  for (const { author, attestations, anchoredBy } of memories2) {
    ordinal++;
    let authorNode = -1;
    let count3 = 0;
    for (const a of attestations) {
      if (authorNode === -1) authorNode = set.agent(author);
      const { witness } = a.record;
      const entry = set.entry(witness);
      const node = entry >>> 1;
      if (node === authorNode) continue;
      if ((entry & 1) === 1 && !set.couldSign(witness, entry, Date.parse(a.record.witnessed_at))) continue;
      if (node >= stamp.length) {
        stamp = grown(stamp, node);
        slot = grown(slot, node);
      }
      if (stamp[node] === ordinal) {
        const at = slot[node];
        if (isNewer(a, chosen[at])) chosen[at] = a;
        continue;
      }
      stamp[node] = ordinal;
      slot[node] = count3;
      if (count3 === chosenNodes.length) chosenNodes = grown(chosenNodes, count3);
      chosenNodes[count3] = node;
      chosen[count3++] = a;
    }
    for (let i = 0; i < count3; i++) {
      const verdict = VERDICT_CODES[chosen[i].record.attestation];
      set.add(chosenNodes[i], authorNode, verdict);
      if (verdict === VERDICT_CODES.confirm) set.add(authorNode, chosenNodes[i], ACKNOWLEDGE_CODE);
    }
    let anchorers = 0;
    if (anchoredBy !== void 0) {
      if (authorNode === -1) authorNode = set.agent(author);
      for (const did of anchoredBy) {
        const node = set.agent(did);
        if (node === authorNode) continue;
        if (node >= stamp.length) {
          stamp = grown(stamp, node);
          slot = grown(slot, node);
        }
        if (stamp[node] === ordinal) continue;
        stamp[node] = ordinal;
        if (count3 + anchorers >= chosenNodes.length) chosenNodes = grown(chosenNodes, count3 + anchorers);
        chosenNodes[count3 + anchorers++] = node;
      }
    }
    if (count3 + anchorers + 1 > claimNodes.length) claimNodes = grown(claimNodes, count3 + anchorers + 1);
    for (let verdict = 0; verdict < 3; verdict++) {
      let members = 0;
      for (let i = 0; i < count3; i++) {
        if (VERDICT_CODES[chosen[i].record.attestation] === verdict) claimNodes[members++] = chosenNodes[i];
      }
      if (verdict === VERDICT_CODES.confirm) {
        for (let i = count3; i < count3 + anchorers; i++) claimNodes[members++] = chosenNodes[i];
      }
      set.claim(ordinal, verdict, claimNodes, members);
    }
  }
  return set;
}
function grown(array, index) {
  const next = new Int32Array(Math.max(index + 1, array.length * 2));
  next.set(array);
  return next;
}
function isNewer(a, b) {
  const at = Date.parse(a.record.witnessed_at);
  const bt = Date.parse(b.record.witnessed_at);
  return at > bt || at === bt && a.id > b.id;
}

// src/reputation/roots-file.ts
import { z as z21 } from "zod";
var TrustRootLineSchema = z21.strictObject({
  kind: z21.enum(["added", "removed"]),
  did: didKey,
  ts: isoTimestamp,
  hash: lineHash
});
var validate = hashedLineValidator(TrustRootLineSchema);

// src/store/constants.ts
var TRUST_SCALE = 1e4;
var BULK_WRITE_BUFFER_BYTES = 32 * 1024 * 1024;

// src/store/level/level-record-store.ts
import { Level as Level2 } from "level";

// src/store/prepare.ts
import * as dagCbor7 from "@ipld/dag-cbor";

// src/store/order.ts
var SCORE_DIGITS = String(TRUST_SCALE).length;
var MAX_MILLIS = Date.parse("9999-12-31T23:59:59.999Z");
var MIN_MILLIS = Date.parse("0000-01-01T00:00:00.000Z");
var CREATED_DIGITS = String(MAX_MILLIS - MIN_MILLIS).length;
var POSITION_PATTERN = new RegExp(`^\\d{${SCORE_DIGITS}}\\x00\\d{${CREATED_DIGITS}}\\x00[^\\x00]{1,128}$`);

// src/store/level/keys.ts
var SEP = "\0";
var SUBLEVELS = {
  records: "records",
  memories: "memories",
  links: "links",
  query: "query",
  stats: "stats",
  orphans: "orphans",
  meta: "meta"
};
var KIND_STAT_KEYS = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, "k" + SEP + kind]));

// src/store/level/sublevels.ts
var PREFIXES = Object.fromEntries(
  Object.entries(SUBLEVELS).map(([name2, label]) => [name2, `!${label}!`])
);

// src/ledger/meta/constants.ts
var POLICY_FORMAT = "isnad-policy/v1";
var DEFAULT_MAX_LINE_BYTES = 1024 * 1024;
var DEFAULT_MAX_FLUSH_BYTES = 4 * 1024 * 1024;

// src/ledger/meta/json-schemas.ts
import { z as z22 } from "zod";

// src/ledger/meta/policy.ts
import { z as z25 } from "zod";

// src/ledger/views/constants.ts
var VIEW_REDUCER = "isnad-views/v1";
var VIEW_RULES_VERSION = 1;
var ATTACHMENT_SCHEMA_VERSION = "isnad-attach-v1";
var REDUCTION_SCHEMA_VERSION = "isnad-reduction-v1";

// src/ledger/views/attachment.ts
import { z as z23 } from "zod";

// src/ledger/views/hash.ts
import { sha256 as sha2565 } from "@noble/hashes/sha2.js";
import canonicalize2 from "canonicalize";
var encoder = new TextEncoder();

// src/ledger/views/ids.ts
var VIEW_ID_DOMAIN = `${VIEW_REDUCER}/id`;
var scratch3 = Buffer.alloc(1024);

// src/ledger/views/attachment.ts
var AttachmentSchema = z23.strictObject({
  schema_version: z23.literal(ATTACHMENT_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.attachment),
  /** The view object this attachment belongs to. */
  object: viewObjectId,
  scope: scopeName,
  /** The object's `ts`, so both land in the same month's shards. */
  ts: isoTimestamp,
  /** The memory CID: the first evidence reference, fetchable from any node. */
  memory: recordCid,
  anchors: z23.array(z23.strictObject({
    id: recordCid,
    type: z23.enum(ANCHOR_TYPES),
    reference: z23.string().min(1),
    hash: z23.string().min(1),
    state: z23.enum(ANCHOR_STATES)
  })),
  attestations: z23.array(z23.strictObject({
    id: recordCid,
    verdict: z23.enum(ATTESTATION_VERDICTS),
    witness: didKey.optional()
  })),
  /** The trust the node computed when it reduced (local, never truth: DESIGN §2). */
  trust: z23.strictObject({ score: z23.number().min(0).max(1), level: z23.enum(TRUST_LEVELS) }),
  hash: lineHash
});

// src/ledger/views/reduction-record.ts
import { z as z24 } from "zod";
var ReductionRecordSchema = z24.strictObject({
  schema_version: z24.literal(REDUCTION_SCHEMA_VERSION),
  id: typedId(ID_PREFIXES.reduction),
  reducer: z24.literal(VIEW_REDUCER),
  memory: recordCid,
  object: viewObjectId,
  object_type: z24.enum(VIEW_OBJECT_TYPES),
  object_hash: lineHash,
  shard: z24.string().min(1),
  attachment: typedId(ID_PREFIXES.attachment).optional(),
  attachment_hash: lineHash.optional(),
  attachment_shard: z24.string().min(1).optional(),
  /** The reduction of the same object before this one. */
  previous: typedId(ID_PREFIXES.reduction).optional(),
  /** When the reduction ran (passed in, never read from a clock here). */
  ts: isoTimestamp,
  hash: lineHash
});

// src/ledger/meta/policy.ts
var NodePolicySchema = z25.strictObject({
  format: z25.literal(POLICY_FORMAT),
  default_scope: scopeName,
  /** The trust policy of DESIGN §2 behind every score in the views and attachments. */
  trust_policy: z25.enum(TRUST_POLICY_NAMES),
  /** Shards older than this are moved to archive/ as .jsonl.gz (issue 3 §6). */
  archive_after_days: z25.number().int().min(1),
  group_commit: z25.strictObject({
    max_line_bytes: z25.number().int().min(1),
    max_flush_bytes: z25.number().int().min(1)
  }),
  views: z25.strictObject({
    reducer: z25.literal(VIEW_REDUCER),
    rules_version: z25.literal(VIEW_RULES_VERSION),
    fact_review_days: z25.number().int().min(1).max(36500),
    disputed_below: z25.number().min(0).max(1),
    default_visibility: z25.enum(VISIBILITIES)
  })
});

// src/trust/constants.ts
var ATTESTED_THRESHOLD = 0.3;
var ANCHORED_THRESHOLD = 0.6;
var CONSENSUS_THRESHOLD = 0.8;
var TRUST_LEVEL_THRESHOLDS = Object.freeze([
  ["Consensus", CONSENSUS_THRESHOLD],
  ["Anchored", ANCHORED_THRESHOLD],
  ["Attested", ATTESTED_THRESHOLD],
  ["Unverified", 0]
]);
var ISNAD_V01_WEIGHTS = Object.freeze({
  /** `if verify_signature(memory.provenance.author): score += 0.2` */
  authorSignature: 0.2,
  /** `if confirmed >= 1: score += 0.2` */
  firstConfirm: 0.2,
  /** `if confirmed >= 3: score += 0.1` */
  manyConfirms: 0.1,
  /** `if valid_anchors >= 1: score += 0.2` */
  firstAnchor: 0.2,
  /** `if valid_anchors >= 2: score += 0.1` */
  manyAnchors: 0.1,
  /** `score += author_rep * 0.2` */
  authorReputation: 0.2,
  /** `score -= disputes * 0.15` */
  perDispute: 0.15
});
var MANY_CONFIRMS = 3;
var MANY_ANCHORS = 2;
var DEFAULT_REPUTATION = 0.5;
var SCHEMA_TRUST_POLICY = "isnad-v0.1";
var DAY_MS = 24 * 60 * 60 * 1e3;

// src/trust/order.ts
function compareIds(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
function compareByTimeThenId(a, b) {
  return a.at - b.at || compareIds(a.id, b.id);
}
function sortByTimeThenId(items) {
  return sortInPlace(items, compareByTimeThenId);
}
function sortRefusals(items) {
  return [...items].sort((a, b) => compareIds(a.id, b.id) || compareIds(a.code, b.code) || compareIds(a.reason, b.reason));
}
function instantOf(timestamp, kind, id) {
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) throw new IsnadError("TIMESTAMP_INVALID", `${kind} ${id} has an invalid timestamp ${timestamp}`);
  return at;
}

// src/trust/count-anchors.ts
function countAnchors(memory, anchors, now2) {
  const refused = [];
  const survivors = [];
  for (const anchor of anchors) {
    const at = instantOf(anchor.record.created_at, "anchor", anchor.id);
    const refusal = firstRefusal(memory, anchor, at, now2);
    if (refusal === null) survivors.push({ ...anchor, at });
    else refused.push(refusal);
  }
  sortByTimeThenId(survivors);
  if (survivors.length < 2) return { accepted: survivors, refused: sortRefusals(refused) };
  const kept = /* @__PURE__ */ new Map();
  for (const anchor of survivors) {
    const key = JSON.stringify([anchor.record.type, anchor.record.reference]);
    const first = kept.get(key);
    if (first === void 0) {
      kept.set(key, anchor);
    } else {
      const reason = first.id === anchor.id ? `anchor ${anchor.id} appears more than once; it counts once` : `anchor ${anchor.id} has the same type and reference as anchor ${first.id}; the same evidence counts once`;
      refused.push({ id: anchor.id, code: "DUPLICATE_ANCHOR", reason, duplicate_of: first.id });
    }
  }
  return { accepted: [...kept.values()], refused: sortRefusals(refused) };
}
function firstRefusal(memory, { id, record, signatureValid, verification }, at, now2) {
  if (!signatureValid) {
    return { id, code: "SIGNATURE_INVALID", reason: `the signature of ${record.anchored_by} on anchor ${id} does not verify` };
  }
  if (record.memory !== memory.id) {
    return { id, code: "WRONG_MEMORY", reason: `anchor ${id} is for memory ${record.memory}, not ${memory.id}` };
  }
  if (at > now2 + MAX_CLOCK_SKEW_MS) {
    return {
      id,
      code: "TIMESTAMP_IN_FUTURE",
      reason: `anchor ${id} is dated ${record.created_at}, more than 15 minutes after ${new Date(now2).toISOString()}`
    };
  }
  if (verification.state !== "verified") {
    const detail = verification.reason === void 0 ? "" : ` (${verification.reason})`;
    const when = verification.checked_at === void 0 ? "" : ` as of ${verification.checked_at}`;
    return {
      id,
      code: "ANCHOR_NOT_VERIFIED",
      reason: `anchor ${id} (${record.type} ${record.reference}) is ${verification.state}${when}${detail}; only verified anchors count`,
      state: verification.state
    };
  }
  return null;
}

// src/trust/count-attestations.ts
var KEYS_ONLY = Object.freeze({ identityOf: (did) => did, named: () => false, refusalAt: () => void 0 });
function countAttestations(memory, attestations, now2, identities = KEYS_ONLY) {
  const refused = [];
  const survivors = [];
  const author = identities.identityOf(memory.record.author.agent_id);
  const dates = new MemoryDates(memory);
  for (const attestation of attestations) {
    const at = instantOf(attestation.record.witnessed_at, "attestation", attestation.id);
    const refusal = firstRefusal2(memory, attestation, at, now2, dates) ?? identityRefusal(attestation, at, author, identities);
    if (refusal === null) survivors.push({ ...attestation, at });
    else refused.push(refuse(attestation, refusal.code, refusal.reason));
  }
  if (!repeatsIdentity(survivors, identities)) return { accepted: sortByTimeThenId(survivors), refused: sortRefusals(refused) };
  const accepted = [];
  for (const votes of groupByWitness(survivors, identities).values()) {
    sortByTimeThenId(votes);
    const newest = votes[votes.length - 1];
    if (newest === void 0) continue;
    accepted.push(newest);
    for (let i = 0; i < votes.length - 1; i++) refused.push(supersede(votes[i], newest));
  }
  return { accepted: sortByTimeThenId(accepted), refused: sortRefusals(refused) };
}
var MemoryDates = class {
  constructor(memory) {
    this.memory = memory;
  }
  memory;
  createdMs;
  get created() {
    this.createdMs ??= instantOf(this.memory.record.created_at, "memory", this.memory.id);
    return this.createdMs;
  }
};
function repeatsIdentity(survivors, identities) {
  if (survivors.length < 2) return false;
  if (survivors.length <= PAIRWISE_MAX) {
    for (let i = 1; i < survivors.length; i++) {
      const identity = identities.identityOf(survivors[i].record.witness);
      for (let j2 = 0; j2 < i; j2++) {
        if (identities.identityOf(survivors[j2].record.witness) === identity) return true;
      }
    }
    return false;
  }
  const seen = /* @__PURE__ */ new Set();
  for (const { record } of survivors) {
    const identity = identities.identityOf(record.witness);
    if (seen.has(identity)) return true;
    seen.add(identity);
  }
  return false;
}
var PAIRWISE_MAX = 8;
function firstRefusal2(memory, { id, record, signatureValid }, at, now2, dates) {
  if (!signatureValid) {
    return { code: "SIGNATURE_INVALID", reason: `the signature of ${record.witness} on attestation ${id} does not verify` };
  }
  if (record.memory !== memory.id) {
    return { code: "WRONG_MEMORY", reason: `attestation ${id} is for memory ${record.memory}, not ${memory.id}` };
  }
  if (record.witness === memory.record.author.agent_id) {
    return {
      code: "SELF_ATTESTATION",
      reason: `attestation ${id} is by the memory's own author ${record.witness}; an author never witnesses itself`
    };
  }
  if (at > now2 + MAX_CLOCK_SKEW_MS) {
    return {
      code: "TIMESTAMP_IN_FUTURE",
      reason: `attestation ${id} is dated ${record.witnessed_at}, more than 15 minutes after ${new Date(now2).toISOString()}`
    };
  }
  if (at < dates.created - MAX_CLOCK_SKEW_MS) {
    return {
      code: "BEFORE_MEMORY",
      reason: `attestation ${id} is dated ${record.witnessed_at}, more than 15 minutes before the memory was created (${memory.record.created_at})`
    };
  }
  return null;
}
function identityRefusal({ id, record }, at, author, identities) {
  const code2 = identities.named(record.witness) ? identities.refusalAt(record.witness, at) : void 0;
  if (code2 !== void 0) {
    return {
      code: "KEY_NOT_VALID",
      reason: `attestation ${id} is signed by ${record.witness}, which its key log refuses at ${record.witnessed_at} (${code2})`
    };
  }
  const identity = identities.identityOf(record.witness);
  if (identity === author) {
    return {
      code: "SELF_ATTESTATION",
      reason: `attestation ${id} is by ${record.witness}, a key of the memory's own author ${author}; an author never witnesses itself`
    };
  }
  return null;
}
function groupByWitness(attestations, identities) {
  const groups = /* @__PURE__ */ new Map();
  for (const attestation of attestations) {
    const identity = identities.identityOf(attestation.record.witness);
    const group = groups.get(identity);
    if (group === void 0) groups.set(identity, [attestation]);
    else group.push(attestation);
  }
  return groups;
}
function supersede(older, newest) {
  if (older.id === newest.id) {
    return {
      ...refuse(older, "DUPLICATE_ATTESTATION", `attestation ${older.id} appears more than once; it counts once`),
      superseded_by: newest.id
    };
  }
  const who = older.record.witness === newest.record.witness ? older.record.witness : `the identity of ${older.record.witness} (through ${newest.record.witness})`;
  const reason = `attestation ${older.id} is superseded: ${who} attested again in ${newest.id} (${newest.record.witnessed_at}, ${newest.record.attestation}); only a witness's newest attestation counts`;
  return { ...refuse(older, "SUPERSEDED_BY_NEWER", reason), superseded_by: newest.id };
}
function refuse({ id, record }, code2, reason) {
  return { id, witness: record.witness, code: code2, reason };
}

// src/trust/evidence.ts
var noEndorsements = () => false;
var defaultReputation = () => DEFAULT_REPUTATION;
function countEvidence(input) {
  if (!Number.isFinite(input.now)) throw new IsnadError("USAGE", `now must be a finite number of ms, got ${input.now}`);
  const reputation = input.reputation ?? defaultReputation;
  const author = input.memory.record.author.agent_id;
  const attestations = countAttestations(input.memory, input.attestations, input.now, input.identities);
  const anchors = countAnchors(input.memory, input.anchors, input.now);
  const keyRefusal = input.identities?.named(author) === true ? input.identities.refusalAt(author, instantOf(input.memory.record.created_at, "memory", input.memory.id)) : void 0;
  const memory = keyRefusal === void 0 || !input.memory.signatureValid ? input.memory : { ...input.memory, signatureValid: false };
  return {
    memory,
    ...keyRefusal === void 0 ? {} : { authorKeyRefusal: keyRefusal },
    author,
    authorReputation: checkedReputation(reputation, author),
    attestations: attestations.accepted,
    anchors: anchors.accepted,
    refusedAttestations: attestations.refused,
    refusedAnchors: anchors.refused,
    reputation,
    rooted: input.rooted ?? input.reputation !== void 0,
    endorses: input.endorses ?? noEndorsements,
    now: input.now
  };
}
function checkedReputation(lookup, agentId) {
  const value = lookup(agentId);
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new IsnadError("USAGE", `reputation of ${agentId} is ${String(value)}, not a number in [0, 1]`);
  }
  return value;
}

// src/trust/level.ts
function trustLevelOf(score) {
  for (const [level, bound] of TRUST_LEVEL_THRESHOLDS) {
    if (score >= bound) return level;
  }
  return "Unverified";
}
function evidenceLevelOf({ confirms, anchors }) {
  if (confirms < 1) return "Unverified";
  if (anchors < 1) return "Attested";
  return confirms >= MANY_CONFIRMS ? "Consensus" : "Anchored";
}
var RANK = { Unverified: 0, Attested: 1, Anchored: 2, Consensus: 3 };
function lowerLevel(a, b) {
  return RANK[a] <= RANK[b] ? a : b;
}
function evidenceReason(level, { confirms, anchors }) {
  switch (level) {
    case "Unverified":
      return "no counted confirm: self-reported only (Attested needs at least one counted confirm)";
    case "Attested":
      return `${confirms} counted confirm${confirms === 1 ? "" : "s"} but no verified anchor (Anchored needs one)`;
    case "Anchored":
      return `${confirms} counted confirm${confirms === 1 ? "" : "s"} and ${anchors} verified anchor${anchors === 1 ? "" : "s"} (Consensus needs ${MANY_CONFIRMS} counted confirms and an anchor)`;
    case "Consensus":
      return `${confirms} counted confirms and ${anchors} verified anchor${anchors === 1 ? "" : "s"}`;
  }
}

// src/trust/isnad-v01-policy.ts
var PARTIAL_NOTE = "a partial attestation counts as neither confirm nor dispute in isnad-v0.1 (the provenance schema's algorithm counts only confirms and disputes)";
var NO_NOTES = /* @__PURE__ */ new Map();
var isnadV01Policy = Object.freeze({
  name: "isnad-v0.1",
  description: "the provenance schema v0.1 algorithm: signature, confirms, anchors, author reputation, disputes",
  score(evidence) {
    let confirms = 0;
    let disputes = 0;
    for (const { record } of evidence.attestations) {
      if (record.attestation === "confirm") confirms++;
      else if (record.attestation === "dispute") disputes++;
    }
    const contributions = [
      signatureStep(evidence.memory.signatureValid, evidence.authorKeyRefusal),
      confirmStep(confirms),
      anchorStep(evidence.anchors.length),
      reputationStep(evidence.authorReputation),
      disputeStep(disputes)
    ];
    if (disputes === 0 && confirms === evidence.attestations.length) return { contributions, attestations: NO_NOTES, countedConfirms: confirms };
    const attestations = /* @__PURE__ */ new Map();
    for (const { id, record } of evidence.attestations) {
      if (record.attestation === "dispute") attestations.set(id, { points: roundTrustScore(-ISNAD_V01_WEIGHTS.perDispute) });
      if (record.attestation === "partial") attestations.set(id, { points: 0, note: PARTIAL_NOTE });
    }
    return { contributions, attestations, countedConfirms: confirms };
  }
});
function signatureStep(valid, keyRefusal) {
  if (keyRefusal !== void 0) {
    return {
      factor: "author_signature",
      points: 0,
      reason: `the author's key could not sign at the memory's created_at (${keyRefusal}: its key log ${keyRefusalText(keyRefusal)}): the signature proves nothing and the +${ISNAD_V01_WEIGHTS.authorSignature} is not given`
    };
  }
  return valid ? { factor: "author_signature", points: ISNAD_V01_WEIGHTS.authorSignature, reason: "the author's signature on the memory verifies" } : { factor: "author_signature", points: 0, reason: `the author's signature on the memory does not verify: the +${ISNAD_V01_WEIGHTS.authorSignature} is not given` };
}
function keyRefusalText(code2) {
  switch (code2) {
    case "KEY_REVOKED":
      return "revokes it from before that instant, e.g. declared compromised since then";
    case "KEY_ROTATED":
      return "had rotated it out by then";
    case "KEY_INACTIVE":
      return "does not name it as active then";
  }
}
var confirmReasons = [];
var anchorReasons = [];
var disputeReasons = [];
var KEPT_REASONS = 64;
function keptReason(kept, count3, build) {
  if (count3 >= KEPT_REASONS) return build(count3);
  return kept[count3] ??= build(count3);
}
function confirmStep(confirms) {
  const points2 = roundTrustScore((confirms >= 1 ? ISNAD_V01_WEIGHTS.firstConfirm : 0) + (confirms >= MANY_CONFIRMS ? ISNAD_V01_WEIGHTS.manyConfirms : 0));
  return { factor: "confirms", points: points2, reason: keptReason(confirmReasons, confirms, confirmReason) };
}
function confirmReason(confirms) {
  return confirms === 0 ? `no counted confirm (+${ISNAD_V01_WEIGHTS.firstConfirm} for \u22651)` : confirms < MANY_CONFIRMS ? `${confirms} counted confirm${confirms === 1 ? "" : "s"}: +${ISNAD_V01_WEIGHTS.firstConfirm} for \u22651 (+${ISNAD_V01_WEIGHTS.manyConfirms} more at \u2265${MANY_CONFIRMS})` : `${confirms} counted confirms: +${ISNAD_V01_WEIGHTS.firstConfirm} for \u22651, +${ISNAD_V01_WEIGHTS.manyConfirms} for \u2265${MANY_CONFIRMS}`;
}
function anchorStep(anchors) {
  const points2 = roundTrustScore((anchors >= 1 ? ISNAD_V01_WEIGHTS.firstAnchor : 0) + (anchors >= MANY_ANCHORS ? ISNAD_V01_WEIGHTS.manyAnchors : 0));
  return { factor: "anchors", points: points2, reason: keptReason(anchorReasons, anchors, anchorReason) };
}
function anchorReason(anchors) {
  return anchors === 0 ? `no counted anchor (+${ISNAD_V01_WEIGHTS.firstAnchor} for \u22651)` : anchors < MANY_ANCHORS ? `${anchors} counted anchor${anchors === 1 ? "" : "s"}: +${ISNAD_V01_WEIGHTS.firstAnchor} for \u22651 (+${ISNAD_V01_WEIGHTS.manyAnchors} more at \u2265${MANY_ANCHORS})` : `${anchors} counted anchors: +${ISNAD_V01_WEIGHTS.firstAnchor} for \u22651, +${ISNAD_V01_WEIGHTS.manyAnchors} for \u2265${MANY_ANCHORS}`;
}
var lastReputation = Number.NaN;
var lastReputationReason = "";
function reputationStep(reputation) {
  if (reputation !== lastReputation) {
    lastReputationReason = `${ISNAD_V01_WEIGHTS.authorReputation} \xD7 author reputation ${reputation}`;
    lastReputation = reputation;
  }
  return {
    factor: "author_reputation",
    points: roundTrustScore(ISNAD_V01_WEIGHTS.authorReputation * reputation),
    reason: lastReputationReason
  };
}
function disputeStep(disputes) {
  return {
    factor: "disputes",
    points: roundTrustScore(-ISNAD_V01_WEIGHTS.perDispute * disputes),
    reason: keptReason(disputeReasons, disputes, disputeReason)
  };
}
function disputeReason(disputes) {
  return disputes === 0 ? `no counted dispute (\u2212${ISNAD_V01_WEIGHTS.perDispute} each)` : `${disputes} counted dispute${disputes === 1 ? "" : "s"} \xD7 \u2212${ISNAD_V01_WEIGHTS.perDispute}`;
}

// src/trust/isnad-reputation-policy.ts
var PARTIAL_WEIGHT = 0.5;
var MIN_CONFIRM_WEIGHT = Number(process.env.ISNAD_MCW ?? 1);
var CONFIRM_MARGIN = 2;
var REPUTATION_POLICY_MAX_SLOPE = Math.max(ISNAD_V01_WEIGHTS.authorReputation, ISNAD_V01_WEIGHTS.firstConfirm, ISNAD_V01_WEIGHTS.perDispute);
var isnadReputationPolicy = Object.freeze({
  name: "isnad-reputation",
  description: "isnad-v0.1 with each witness weighted by its reputation from the node's trust roots",
  score(evidence) {
    const attestations = /* @__PURE__ */ new Map();
    let confirmWeight = 0;
    let disputeWeight = 0;
    let countedConfirms = 0;
    let weighty = evidence.authorReputation > 0;
    const support = evidence.attestations.filter((a) => a.record.attestation !== "dispute");
    const mutual = new Set(support.filter((a) => evidence.endorses(evidence.author, a.record.witness)).map((a) => a.id));
    const cliqueOnly = mutual.size > 0 && mutual.size === support.length - 1;
    for (const a of evidence.attestations) {
      const reputation = checkedReputation(evidence.reputation, a.record.witness);
      if (mutual.has(a.id)) {
        attestations.set(a.id, { points: 0, note: `not counted: the author vouches for ${a.record.witness} (it confirmed memories of that witness, directly or through one agent), and mutual vouching is not independent evidence (witness reputation ${reputation})` });
        continue;
      }
      if (cliqueOnly && a.record.attestation !== "dispute") {
        attestations.set(a.id, { points: 0, note: `not counted: every other confirmer of this memory is vouched for by its author, so this confirm agrees with the author's circle alone (witness reputation ${reputation})` });
        continue;
      }
      const rep = reputation;
      const weight = weightOf(a, rep);
      if (rep > 0) weighty = true;
      if (a.record.attestation === "confirm" && rep > 0) countedConfirms++;
      if (a.record.attestation === "dispute") {
        disputeWeight += rep;
        attestations.set(a.id, { points: roundTrustScore(-ISNAD_V01_WEIGHTS.perDispute * rep), note: `dispute weighted by reputation ${rep}` });
      } else {
        confirmWeight += weight;
        attestations.set(a.id, { note: noteOf(a, rep, weight) });
      }
    }
    const contributions = [
      signatureStep(evidence.memory.signatureValid, evidence.authorKeyRefusal),
      confirmStep2(confirmWeight),
      anchorStep(evidence.anchors.length),
      {
        factor: "author_reputation",
        points: roundTrustScore(ISNAD_V01_WEIGHTS.authorReputation * evidence.authorReputation),
        reason: `${ISNAD_V01_WEIGHTS.authorReputation} \xD7 author reputation ${evidence.authorReputation}`
      },
      {
        factor: "disputes",
        points: roundTrustScore(-ISNAD_V01_WEIGHTS.perDispute * disputeWeight),
        reason: `disputes weighted by reputation: \u03A3 rep = ${round(disputeWeight)} \xD7 \u2212${ISNAD_V01_WEIGHTS.perDispute}`
      }
    ];
    const short = confirmWeight < MIN_CONFIRM_WEIGHT;
    const contested = !short && confirmWeight < CONFIRM_MARGIN * disputeWeight;
    const result = { contributions, attestations, countedConfirms: short || contested ? 0 : countedConfirms };
    if (countedConfirms > 0 && short) {
      result.evidenceNote = `too little confirm weight: the counted confirms' reputations sum to ${round(confirmWeight)}, below ${MIN_CONFIRM_WEIGHT}`;
    } else if (countedConfirms > 0 && contested) {
      result.evidenceNote = `contested: the confirms' reputation (${round(confirmWeight)}) is not ${CONFIRM_MARGIN}\xD7 the disputes' (${round(disputeWeight)})`;
    }
    const insufficient = insufficientOf(evidence, weighty);
    if (insufficient !== void 0) result.insufficient = insufficient;
    return result;
  }
});
function insufficientOf(evidence, weighty) {
  if (!evidence.rooted) {
    return { code: "NO_ROOTS", reason: "this node has no trust roots (no agent of its own, none added with `isnad trust root add`): every agent has the default reputation, which says nothing about anyone" };
  }
  if (!weighty) {
    return { code: "NO_PATH", reason: "no trust path from this node's roots reaches the author or any witness of this memory" };
  }
  return void 0;
}
function weightOf(a, rep) {
  return a.record.attestation === "partial" ? PARTIAL_WEIGHT * rep : rep;
}
function noteOf(a, rep, weight) {
  return a.record.attestation === "partial" ? `partial: half a confirm, weight ${PARTIAL_WEIGHT} \xD7 reputation ${rep} = ${round(weight)}` : `confirm weighted by reputation ${rep}`;
}
function confirmStep2(c) {
  const first = ISNAD_V01_WEIGHTS.firstConfirm * Math.min(1, c);
  const more = ISNAD_V01_WEIGHTS.manyConfirms * Math.min(1, Math.max(0, (c - 1) / (MANY_CONFIRMS - 1)));
  return {
    factor: "confirms",
    points: roundTrustScore(first + more),
    reason: `reputation-weighted confirms C = ${round(c)}: +${ISNAD_V01_WEIGHTS.firstConfirm} \xD7 min(1, C), +${ISNAD_V01_WEIGHTS.manyConfirms} \xD7 min(1, (C \u2212 1)/${MANY_CONFIRMS - 1}) for C above 1`
  };
}
function round(value) {
  return roundTrustScore(value);
}

// src/trust/policies.ts
var TRUST_POLICIES = Object.freeze({
  "isnad-v0.1": isnadV01Policy,
  "isnad-reputation": isnadReputationPolicy
});
function isTrustPolicyName(name2) {
  return TRUST_POLICY_NAMES.includes(name2);
}
function getTrustPolicy(name2) {
  if (!isTrustPolicyName(name2)) {
    throw new IsnadError("USAGE", `unknown trust policy ${JSON.stringify(name2)}; known: ${TRUST_POLICY_NAMES.join(", ")}`);
  }
  return TRUST_POLICIES[name2];
}

// src/trust/compute.ts
function computeTrust(input, options = {}) {
  const policy = typeof options.policy === "object" ? options.policy : getTrustPolicy(options.policy ?? SCHEMA_TRUST_POLICY);
  const evidence = countEvidence(input);
  const policyScore = policy.score(evidence);
  const scored = evidence.authorKeyRefusal === void 0 ? policyScore : { ...policyScore, countedConfirms: 0, evidenceNote: `the author's key could not sign at created_at (${evidence.authorKeyRefusal}): nothing attests a forged authorship` };
  let sum = 0;
  for (const { points: points2 } of scored.contributions) sum += points2;
  const unclamped = roundTrustScore(sum);
  const score = Math.min(1, Math.max(0, unclamped));
  const basis = levelBasisOf(score, scored, evidence.anchors.length);
  const result = {
    score,
    level: scored.insufficient === void 0 ? lowerLevel(basis.score_level, basis.evidence_level) : "Unverified",
    policy: policy.name,
    computed_at: isoStringOf(input.now),
    factors: factorsOf(evidence),
    contributions: scored.contributions,
    counted: {
      attestations: countedAttestations(evidence, scored),
      anchors: evidence.anchors.map(({ id, record }) => ({ id, type: record.type, reference: record.reference }))
    },
    refused: {
      attestations: [...evidence.refusedAttestations],
      anchors: [...evidence.refusedAnchors]
    }
  };
  if (score !== unclamped) {
    result.clamped = true;
    result.unclamped_score = unclamped;
  }
  result.level_basis = basis;
  if (scored.insufficient !== void 0) result.insufficient = scored.insufficient;
  return result;
}
function levelBasisOf(score, scored, anchors) {
  const held = { confirms: scored.countedConfirms, anchors };
  const scoreLevel = trustLevelOf(score);
  const evidenceLevel = evidenceLevelOf(held);
  const because = (level) => evidenceReason(level, held) + (scored.evidenceNote === void 0 ? "" : ` (${scored.evidenceNote})`);
  if (scored.insufficient !== void 0) {
    return { score_level: scoreLevel, evidence_level: evidenceLevel, set_by: "insufficient", reason: `too little to judge: ${scored.insufficient.reason}` };
  }
  const lower = lowerLevel(scoreLevel, evidenceLevel);
  const scoreReason = `score ${score} is in the ${scoreLevel} band`;
  if (scoreLevel === evidenceLevel) {
    return { score_level: scoreLevel, evidence_level: evidenceLevel, set_by: "both", reason: `${scoreReason}, and the evidence allows ${evidenceLevel}: ${because(evidenceLevel)}` };
  }
  return lower === evidenceLevel ? { score_level: scoreLevel, evidence_level: evidenceLevel, set_by: "evidence", reason: `${scoreReason}, but the evidence allows only ${evidenceLevel}: ${because(evidenceLevel)}` } : { score_level: scoreLevel, evidence_level: evidenceLevel, set_by: "score", reason: `${scoreReason}; the evidence would allow ${evidenceLevel} (${because(evidenceLevel)})` };
}
function factorsOf(evidence) {
  let disputes = 0;
  let confirms = 0;
  let partials = 0;
  for (const { record } of evidence.attestations) {
    if (record.attestation === "dispute") disputes++;
    else if (record.attestation === "confirm") confirms++;
    else if (record.attestation === "partial") partials++;
  }
  const age = evidence.now - instantOf(evidence.memory.record.created_at, "memory", evidence.memory.id);
  return {
    author_reputation: evidence.authorReputation,
    witness_count: evidence.attestations.length,
    anchor_count: evidence.anchors.length,
    // Whole days; a memory dated slightly ahead (within the allowed clock skew) is 0 days old.
    age_days: Math.max(0, Math.floor(age / DAY_MS)),
    dispute_count: disputes,
    confirm_count: confirms,
    partial_count: partials,
    signature_valid: evidence.memory.signatureValid
  };
}
var lastInstant = Number.NaN;
var lastIso = "";
function isoStringOf(now2) {
  if (now2 !== lastInstant) {
    lastIso = new Date(now2).toISOString();
    lastInstant = now2;
  }
  return lastIso;
}
function countedAttestations(evidence, scored) {
  return evidence.attestations.map(({ id, record }) => {
    const counted = {
      id,
      witness: record.witness,
      verdict: record.attestation,
      witnessed_at: record.witnessed_at
    };
    const note = scored.attestations.get(id);
    if (note?.points !== void 0) counted.points = note.points;
    if (note?.note !== void 0) counted.note = note.note;
    return counted;
  });
}

// src/reputation/schemas.ts
import { z as z26 } from "zod";
var TrustRootSchema = z26.strictObject({ did: didKey, added_at: isoTimestamp });
var AgentReputationSchema = z26.strictObject({
  did: didKey,
  reputation: z26.number().min(0).max(1),
  rank: z26.number().min(0).max(1),
  root: z26.boolean(),
  path: z26.array(didKey).nullable(),
  /** The debit of issue 18: standing of the agents that agreed and contradicted, and the factor applied. */
  agreement: z26.strictObject({ agreed: z26.number().min(0), contradicted: z26.number().min(0), factor: z26.number().min(0).max(1) }).optional()
});

// ../../../tmp/th/debug.ts
var [name, sybils, seed, want] = process.argv.slice(2);
var scenario = await loadScenario(name);
if (sybils !== void 0 && sybils !== "-") scenario = withSybils(scenario, Number(sybils));
scenario = { ...scenario, seed: Number(seed ?? scenario.seed) };
var plan = createPlan(scenario);
var run = playModel(scenario, plan, () => {
});
var T = run.tracked.length;
var now = MODEL_EPOCH_MS + run.measuredAt;
var observer = plan.observers[0];
var j = run.tracked.indexOf(observer);
var memories = /* @__PURE__ */ new Map();
var atts = /* @__PURE__ */ new Map();
for (let index = 0; index < run.records.length; index++) {
  if (Number.isNaN(run.arrivals[index * T + j])) continue;
  const v = verifyRecordBytes(run.records[index].bytes, { verifier: nodeCryptoVerifier, now });
  const r = v.signed.record;
  if (r.kind === "memory") memories.set(v.id, r);
  else if (r.kind === "attestation") {
    const l = atts.get(r.memory) ?? [];
    l.push({ id: v.id, record: r });
    atts.set(r.memory, l);
  }
}
var didIndex = new Map(run.agents.map((a, i) => [a.did, i]));
var roots = [observer, ...plan.trustRoots].map((i) => run.agents[i].did);
var table = computeReputation(collectVotes([...atts].flatMap(([m, list]) => memories.has(m) ? [{ author: memories.get(m).author.agent_id, attestations: list }] : [])), roots);
var byRole = /* @__PURE__ */ new Map();
plan.roles.forEach((role, i) => {
  const l = byRole.get(role) ?? [];
  l.push(table.lookup(run.agents[i].did));
  byRole.set(role, l);
});
for (const [role, l] of byRole) {
  const s = [...l].sort((a, b) => a - b);
  console.log(role, "n", l.length, "rep mean", (l.reduce((a, b) => a + b, 0) / l.length).toFixed(3), "p10", s[Math.floor(s.length * 0.1)]?.toFixed(3), "p50", s[Math.floor(s.length / 2)]?.toFixed(3), "p90", s[Math.floor(s.length * 0.9)]?.toFixed(3));
}
var truthOf2 = new Map(plan.memories.map((m) => [run.records[m.serial]?.id, m]));
var shown = 0;
for (const [id, record] of memories) {
  const m = truthOf2.get(id);
  const r = computeTrust({ memory: { id, record, signatureValid: true }, attestations: (atts.get(id) ?? []).map((a) => ({ ...a, signatureValid: true })), anchors: [], now, ...trustInputsOf(table) }, { policy: "isnad-reputation" });
  const bad = want === "falseAttested" ? !m.truth && r.level !== "Unverified" : m.truth && r.level === "Unverified";
  if (!bad || shown++ > 12) continue;
  console.log(`
${m.truth ? "TRUE" : "FALSE"} by ${plan.roles[m.author]} rep ${table.lookup(record.author.agent_id).toFixed(2)} score ${r.score} ${r.level} | ${r.level_basis?.reason}`);
  for (const a of atts.get(id) ?? []) {
    const w = didIndex.get(a.record.witness);
    console.log("   ", plan.roles[w], a.record.attestation, "rep", table.lookup(a.record.witness).toFixed(2));
  }
  console.log("   planned:", m.answers.map((a) => `${plan.roles[a.witness]}:${a.verdict}`).join(" "));
  for (const c of r.contributions) console.log("    ", c.factor, c.points);
}
var coll = plan.roles.flatMap((r, i) => r === "colluder" ? [i] : []);
for (const a of coll) console.log("endorses", a, coll.map((w) => `${w}:${table.endorses(run.agents[a].did, run.agents[w].did) ? 1 : 0}`).join(" "));
console.log(plan.memories.filter((m) => plan.roles[m.author] === "colluder").map((m) => `${m.author}@${m.at.toFixed(2)}<-${m.answers.map((a) => a.witness).join(",")}`).join("  "));
