/*
 * What counts as module-level mutable state in a core file (the core holds none).
 * A textual check, so it is itself tested on snippets (module-state.test.ts): each pattern below
 * must catch the forms the core once held, and pass the constants it keeps.
 */

export const MODULE_STATE: ReadonlyArray<readonly [string, RegExp]> = [
  ['a module-level let or var', /^(export\s+)?(let|var)\s/m],
  // An empty collection at module level exists to be filled; a Readonly one is a fixed constant.
  // `(?!\w)` stops `\w+` from backing off a letter to slip past the Readonly look-ahead.
  ['a module-level collection filled at run time', /^(export\s+)?const\s+\w+(?!\w)(?!\s*:\s*Readonly)[^=\n]*=\s*new\s+(Weak)?(Map|Set)\s*(<[^>]*>)?\(\s*\)/m],
  ['a module-level empty array or object filled at run time', /^(export\s+)?const\s+\w+(?!\w)(?!\s*:\s*(readonly\s|Readonly))[^=\n]*=\s*(\[\s*\]|\{\s*\})\s*$/m],
  ['an assignment at module level (to an import or a table)', /^[A-Za-z_$][\w$]*(\.[\w$]+|\[[^\]]+\])+\s*=[^=]/m],
  ['a loop at module level', /^(for|while)\s*\(/m]
]

/** `text` without its comments, as the checks read it. */
export function codeOf (text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}

/** What module-level state `text` (a TypeScript file) holds, by MODULE_STATE's names; empty if none. */
export function moduleStateIn (text: string): string[] {
  const code = codeOf(text)
  return MODULE_STATE.filter(([, pattern]) => pattern.test(code)).map(([what]) => what)
}
