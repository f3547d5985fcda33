/*
 * The argument naming rule (docs/architecture.md, "Argument names"): one rule for every operation's
 * input, so HTTP bodies, path parameters, query strings, MCP arguments, CLI options and the library
 * all say `id` for the memory an operation acts on. It is declared here once: the table's input
 * schemas use its names, argument-check.ts checks an operation against it, and
 * test/unit/api/argument-names.test.ts walks every operation of the table through that check.
 *
 *  A1  names are lowerCamelCase (`minTrust`, `expiresAt`).
 *  A2  a field holding record ids (CIDs) is `id` when it names the record the operation acts on,
 *      `ids` for several; a record in another role is named by that role (`supersedes`).
 *  A3  a field holding did:keys is `did` when it names the agent the operation acts on, `dids` for
 *      several; the signer is `as`; an agent in another role is named by that role (`author`, `to`).
 *  A4  `id`, `ids`, `did`, `dids` mean nothing else.
 *  A5  a name means one kind of value in every operation (`tags` is always a list of tags).
 *  A6  a list is named in the plural, unless its role says it is several (`to`, `derivedFrom`).
 *  A7  a path parameter is the subject: `id` or `did`.
 *  A8  names this rule replaced are refused with the new name (`memory` → `id`).
 */

/** What a field holds, as the rule reads it from the field's JSON Schema. */
export type ArgumentKind = 'record' | 'records' | 'agent' | 'agents' | 'other'

interface KindNames {
  /** The name of the operation's own subject of this kind. */
  subject: string
  /** Names of this kind in another role. */
  roles: readonly string[]
}

/** A2, A3: the names each kind of reference may take. A new role is added here, with why in its field's description. */
export const ARGUMENT_NAMES: Readonly<Record<Exclude<ArgumentKind, 'other'>, KindNames>> = {
  record: { subject: 'id', roles: ['supersedes'] },
  records: { subject: 'ids', roles: ['derivedFrom'] },
  agent: { subject: 'did', roles: ['as', 'author', 'key'] },
  agents: { subject: 'dids', roles: ['to'] }
}

/** A6: list roles whose name is not a plural. */
export const SEVERAL_BY_ROLE: ReadonlySet<string> = new Set(['to', 'derivedFrom'])

/** A8: names this rule replaced, with the name to give instead. */
export const RENAMED_ARGUMENTS: Readonly<Record<string, string>> = { memory: 'id' }

/** A8 at parse time: the hint for an unknown key that is a renamed argument of an input with these names. */
export function renamedArgumentHint (inputNames: readonly string[], unknownKeys: readonly string[]): string | undefined {
  for (const key of unknownKeys) {
    const renamed = RENAMED_ARGUMENTS[key]
    if (renamed !== undefined && inputNames.includes(renamed)) return `\`${key}\` is now \`${renamed}\``
  }
  return undefined
}
