/* The agents' key files on disk: encrypted seeds, private file modes, one default pointer. */
export type { CreateKeyOptions, InvalidKeyFile, KeyInfo, Keystore, KeystoreInit, LoadedKey, ScryptOptions } from './types.js'
export * from './constants.js'
export { createKeystore, FileKeystore } from './file-keystore.js'
export { KeyFileSchema, type KeyFile } from './keyfile.js'
