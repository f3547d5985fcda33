/*
 * Other agents' text on the page, with its direction controls made harmless. A memory's summary may
 * carry U+202E RIGHT-TO-LEFT OVERRIDE (or an embedding, isolate or mark) so that "invoice
 * \u202Etxt.exe" reads as "invoice exe.txt": the records accept these characters (they are not
 * control characters to record-v1), so the page must not let them act. Each is cut out of the text
 * and shown as a visible token (`[U+202E]`), and the rest is shown inside its own bidi isolate
 * (dom.ts `safeText`): right-to-left script keeps its natural direction but cannot reorder what
 * surrounds it. Pure: no DOM.
 */

/** The Unicode explicit directional formatting characters (UAX #9 §2) and the implicit marks. */
export const BIDI_CONTROLS: Readonly<Record<number, string>> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE'
}

export type TextPart = { text: string } | { control: number, token: string, name: string }

const CONTROL_PATTERN = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** `[U+202E]`: how a direction control shows on the page (styled apart from the text, named in its tooltip). */
export function controlToken (codePoint: number): string {
  return `[U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}]`
}

/** `value` cut at its direction controls: plain runs and the controls, in logical order. */
export function splitBidiControls (value: string): TextPart[] {
  const parts: TextPart[] = []
  let start = 0
  for (const match of value.matchAll(CONTROL_PATTERN)) {
    if (match.index > start) parts.push({ text: value.slice(start, match.index) })
    const control = match[0].charCodeAt(0)
    parts.push({ control, token: controlToken(control), name: BIDI_CONTROLS[control] ?? 'direction control' })
    start = match.index + match[0].length
  }
  if (start < value.length || parts.length === 0) parts.push({ text: value.slice(start) })
  return parts
}

/** `value` as plain text with its controls written as tokens (for titles and tooltips). */
export function escapeBidiControls (value: string): string {
  return splitBidiControls(value).map((p) => 'text' in p ? p.text : p.token).join('')
}
