import { describe, expect, it } from 'vitest'
import { BIDI_CONTROLS, escapeBidiControls, splitBidiControls } from '../../../src/dashboard/browser/text.js'

/*
 * The dashboard's handling of direction controls in other agents' text (text.ts): every explicit
 * directional formatting character and mark (UAX #9 §2) is cut out and named, in logical order;
 * everything else, right-to-left script included, is left as written.
 */

describe('splitBidiControls', () => {
  const vectors: Array<{ id: string, input: string, parts: ReturnType<typeof splitBidiControls> }> = [
    { id: 'plain', input: 'the staging deploy', parts: [{ text: 'the staging deploy' }] },
    { id: 'empty', input: '', parts: [{ text: '' }] },
    {
      id: 'RLO spoofing an extension',
      input: 'invoice \u202Etxt.exe',
      parts: [{ text: 'invoice ' }, { control: 0x202e, token: '[U+202E]', name: 'RIGHT-TO-LEFT OVERRIDE' }, { text: 'txt.exe' }]
    },
    {
      id: 'isolate pair at both ends',
      input: '\u2067x\u2069',
      parts: [{ control: 0x2067, token: '[U+2067]', name: 'RIGHT-TO-LEFT ISOLATE' }, { text: 'x' }, { control: 0x2069, token: '[U+2069]', name: 'POP DIRECTIONAL ISOLATE' }]
    },
    {
      id: 'adjacent controls',
      input: 'a\u200F\u061Cb',
      parts: [{ text: 'a' }, { control: 0x200f, token: '[U+200F]', name: 'RIGHT-TO-LEFT MARK' }, { control: 0x061c, token: '[U+061C]', name: 'ARABIC LETTER MARK' }, { text: 'b' }]
    },
    // Arabic and Hebrew text is content, not a control: left whole.
    { id: 'right-to-left script', input: 'إسناد שלום', parts: [{ text: 'إسناد שלום' }] },
    // Neighbours of the control ranges that are not directional: zero-width joiner (emoji), U+2065 (unassigned), U+202F (narrow no-break space).
    { id: 'neighbours', input: 'a\u200Db\u202Fc\u2065', parts: [{ text: 'a\u200Db\u202Fc\u2065' }] }
  ]
  for (const v of vectors) {
    it(v.id, () => {
      expect(splitBidiControls(v.input), v.id).toEqual(v.parts)
    })
  }

  it('names and cuts out every control in the table, and rejoins the rest losslessly', () => {
    for (const [codePoint, name] of Object.entries(BIDI_CONTROLS)) {
      const control = String.fromCharCode(Number(codePoint))
      const parts = splitBidiControls(`left${control}right`)
      expect(parts, name).toHaveLength(3)
      expect(parts[1], name).toMatchObject({ control: Number(codePoint), name })
      expect(escapeBidiControls(`left${control}right`), name).not.toContain(control)
    }
    expect(Object.keys(BIDI_CONTROLS)).toHaveLength(12)
  })

  it('escapes for tooltips and option texts', () => {
    expect(escapeBidiControls('invoice \u202Etxt.exe \u202C(ok)')).toBe('invoice [U+202E]txt.exe [U+202C](ok)')
  })
})
