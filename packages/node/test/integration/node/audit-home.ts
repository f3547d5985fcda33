import { auditDataDir, type AuditReport } from '../../../src/ledger/audit/index.js'
import { nodeCryptoVerifier } from '../../../src/fast-crypto/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { checkIndexAgainstLedger } from '../../../src/node/audit/index-check.js'

/** `isnad ledger verify` on a home's default scope, with the index checked against the ledger. */
export async function auditHome (home: string): Promise<AuditReport> {
  return await auditDataDir({
    dataDir: nodePaths(home).data,
    scope: 'default',
    verifier: nodeCryptoVerifier,
    now: Date.now,
    indexCheck: async (facts) => await checkIndexAgainstLedger(home, facts)
  })
}
