import type { KeyInfo, Keystore } from '../../keystore/index.js'
import type { CreateKeyInput } from '../node-operations.js'

/** createKey over keys/: the operation's `default` is the keystore's `makeDefault`. */
export async function keyOf (keystore: Keystore, { default: makeDefault, ...input }: CreateKeyInput): Promise<KeyInfo> {
  return await keystore.create({ ...input, makeDefault: makeDefault === true })
}
