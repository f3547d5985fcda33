/**
 * `_meta/` of the Memory Format Spec V3.1 §3: spec.json, policy.json and the JSON Schemas of events
 * and view objects, generated from the code's own contracts and rewritten only when they change.
 */
export { buildMetaFiles, metaFileText, writeMetaFile, writeMetaFiles, readPolicy, type MetaFiles, type MetaFilesInit, type WriteMetaResult } from './files.js'
export { buildPolicy, viewRulesOf, NodePolicySchema, type NodePolicy, type PolicyInput } from './policy.js'
export { buildSpecFile } from './spec-file.js'
export { buildEventJsonSchema, buildObjectJsonSchema } from './json-schemas.js'
export * from './constants.js'
