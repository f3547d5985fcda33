import { decodeDidKey, verifyStrict } from '../../identity/index.js'
import { cidOfBytes, cidString, decodeSignature, encodeCanonical, parseSignedRecord, signerOf, signingInputFor } from '../../record/index.js'
import type { IsnadRecord } from '../../schema/index.js'

/*
 * The browser's own check of a record (the page does not take the node's word for a
 * signature). From the record's fields as the API sent them it recomputes the canonical DAG-CBOR
 * encoding, the CID (record-v1 R1), the domain-separated signing input ("isnad/<kind>/v1\0" + CID
 * bytes) and checks the Ed25519 signature against the signer's did:key with @noble/curves under the
 * project's strict RFC 8032 rules (verifyStrict, the portable verifier of src/identity; src/identity and src/record import no Node
 * built-in, so the page bundles them through their index.ts).
 * Pure: no DOM, so the same code runs in the unit tests.
 */

export interface BrowserCheck {
  /** The id recomputed here from the record's canonical bytes. */
  id: string
  /** Whether the id the node claimed for it is that id. */
  idMatches: boolean
  record?: IsnadRecord
  signer?: string
  /** Signature valid and id as claimed: the record is what its signer signed. */
  valid: boolean
  /** Why not, when not valid. */
  reason?: string
}

/** Checks one signed record `{ record, signature }` that the node says has id `claimedId`. */
export function checkSignedRecord (input: unknown, claimedId?: string): BrowserCheck {
  let record: IsnadRecord
  let signature: string
  try {
    const parsed = parseSignedRecord(input)
    record = parsed.record
    signature = parsed.signature
  } catch (err) {
    return { id: claimedId ?? '', idMatches: false, valid: false, reason: `not a valid record: ${messageOf(err)}` }
  }
  const cid = cidOfBytes(encodeCanonical(record))
  const id = cidString(cid)
  const idMatches = claimedId === undefined || claimedId === id
  const signer = signerOf(record)
  let signatureValid: boolean
  try {
    signatureValid = verifyStrict(decodeSignature(signature), signingInputFor(record.kind, cid), decodeDidKey(signer))
  } catch (err) {
    return { id, idMatches, record, signer, valid: false, reason: `signature malformed: ${messageOf(err)}` }
  }
  if (!signatureValid) return { id, idMatches, record, signer, valid: false, reason: `signature does not verify against ${signer}` }
  if (!idMatches) return { id, idMatches, record, signer, valid: false, reason: `the node calls it ${claimedId ?? ''}, but its bytes hash to ${id}` }
  return { id, idMatches, record, signer, valid: true }
}

function messageOf (err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
