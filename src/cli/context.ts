import { readFile } from 'node:fs/promises'
import { IsnadError } from '../errors/index.js'
import { createKeystore, type Keystore } from '../keys/index.js'
import { LocalNode, nodePaths, resolveHome, type Signer } from '../node/index.js'
import type { Output } from './output.js'

/** Options every command accepts (declared once on the root program). */
export interface GlobalOptions {
  home?: string
  json?: boolean
  passphraseFile?: string
}

export interface CommandContext {
  home: string
  out: Output
  keystore: () => Keystore
  /**
   * Opens the node home, runs `fn`, closes it. `write` (the default) takes the single-writer lock
   * and journals; commands that only read pass `read`.
   */
  withNode: <T>(fn: (node: LocalNode) => Promise<T>, mode?: 'read' | 'write') => Promise<T>
  /** The key to sign with: `--as <did>` or the home's default key. */
  signer: (as?: string) => Promise<Signer>
  passphrase: () => Promise<string | undefined>
}

export function createContext (options: GlobalOptions, out: Output, env: NodeJS.ProcessEnv = process.env): CommandContext {
  const home = resolveHome(options.home, env)
  const paths = nodePaths(home)
  let keystore: Keystore | undefined
  const getKeystore = (): Keystore => (keystore ??= createKeystore({ directory: paths.keys }))

  /** A passphrase comes from --passphrase-file or $ISNAD_PASSPHRASE, never from argv (ps shows argv). */
  const passphrase = async (): Promise<string | undefined> => {
    if (options.passphraseFile !== undefined) {
      const text = await readFile(options.passphraseFile, 'utf8').catch((cause: unknown) => {
        throw new IsnadError('IO_ERROR', `cannot read passphrase file ${options.passphraseFile}`, { cause })
      })
      return text.replace(/\r?\n$/, '')
    }
    return env.ISNAD_PASSPHRASE === undefined || env.ISNAD_PASSPHRASE === '' ? undefined : env.ISNAD_PASSPHRASE
  }

  return {
    home,
    out,
    keystore: getKeystore,
    async withNode (fn, mode = 'write') {
      const node = await LocalNode.open({ home, mode })
      try {
        return await fn(node)
      } finally {
        await node.close()
      }
    },
    async signer (as) {
      const did = as ?? await getKeystore().defaultDid()
      if (did === null || did === undefined) {
        throw new IsnadError('UNKNOWN_KEY', `no default key in ${paths.keys}; run \`isnad init\` or \`isnad id new --default\``)
      }
      const key = await getKeystore().load(did, await passphrase())
      return { did: key.did, secretKey: key.secretKey }
    },
    passphrase
  }
}
