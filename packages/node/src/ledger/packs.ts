import { createHash } from 'node:crypto'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { CarBufferReader } from '@ipld/car/buffer-reader'
import * as CarBufferWriter from '@ipld/car/buffer-writer'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { z } from 'zod'
import { IsnadError } from '../errors/index.js'
import { ensureDirectory, errnoOf, ioError, syncDirectory, writeFileAtomic } from '../fs/index.js'
import { LEDGER_FILE_MODE } from './constants.js'

/*
 * Record packs (docs/ledger-packs.md): a batch's records stored once, as their canonical
 * DAG-CBOR bytes (record-v1 §2.4), in one CAR v1 file, named by content, and one `memory.packed`
 * event naming the pack and the record ids. The pack is durable before the event that names it is
 * appended, so an event never names a pack a crash could lose; a pack no event names (a crash
 * between the two) is never read and carries nothing that was acknowledged.
 *
 * The CAR: header roots = [the pack's CID]; the first block is the root, a DAG-CBOR list of links
 * to the record blocks in order; then one block per record, its CID the CIDv1 (dag-cbor, sha2-256)
 * of the signed record's canonical bytes. `ipfs dag import`, `car ls` or @ipld/car read it as it is.
 */

/** The event type of a pack (isnad's addition to the spec's event types, docs/architecture.md, "The data directory"). */
export const PACK_EVENT_TYPE = 'memory.packed'

/** @default 'packs' — the folder of packs, beside `streams/` (one subfolder per scope). */
export const PACKS_DIR = 'packs'

/**
 * @default 524288 (512 KiB) — a pack's CAR up to this size may travel inside its event (base64,
 * `car`): the batch is then durable with one write and one sync of the ledger. A gossip burst (up to
 * 256 records) and a single `remember` are inline at any size up to this: a file costs two more
 * fsyncs (the pack, its folder) on their critical path, and a burst of 2,000 gossiped memories ran
 * at a median 0.76× with its batches as files (measured on 2 cores; BENCHMARKS.md, "Disk").
 */
export const PACK_INLINE_MAX_BYTES = 512 * 1024

/**
 * @default 65536 (64 KiB) — for the other sources (a sync or fetch page, an import, a replay) a pack
 * above this is a file: base64 would store a third more bytes than the records (the disk
 * figures: a sync of 1.39 MB kept 2.41 MB of `streams/` inline, 1.63 MB of packs + 0.23 MB of
 * `streams/` as files), and sync catch-up showed no cost from the fsyncs (BENCHMARKS.md).
 */
export const PACK_PAGE_INLINE_MAX_BYTES = 64 * 1024

/** Sources whose batches stay inline up to PACK_INLINE_MAX_BYTES: the latency-bound ones. */
const INLINE_SOURCES: ReadonlySet<string> = new Set(['gossip', 'local'])

/** The largest CAR a batch from `source` carries inside its event. */
export function packInlineMaxOf (source: string): number {
  return INLINE_SOURCES.has(source) ? PACK_INLINE_MAX_BYTES : PACK_PAGE_INLINE_MAX_BYTES
}

/**
 * @default 2048 — records per pack: the event lists every id (about 62 bytes each); with an inline
 * CAR of PACK_INLINE_MAX_BYTES (683 KiB of base64) the line stays below MAX_LINE_BYTES (1 MiB). A
 * larger batch becomes several packs, appended together.
 */
export const PACK_MAX_RECORDS = 2048

const SHA2_256 = 0x12

/** `memory.packed`'s payload: the pack, its records' ids in pack order, where they came from. */
export const PackPayloadSchema = z.looseObject({
  pack: z.string().min(1).max(128),
  records: z.array(z.string().min(1).max(128)).min(1),
  source: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a short lower-case name'),
  /** The CAR's length in bytes. */
  bytes: z.number().int().positive(),
  /** The CAR itself, base64 (RFC 4648 §4, padded: `base64 -d` reads it), when it is small (PACK_INLINE_MAX_BYTES). */
  car: z.string().optional()
})
export type PackPayload = z.infer<typeof PackPayloadSchema>

export interface BuiltPack {
  /** The pack's CID (its root block's), base32: the file's name and the event's `pack`. */
  cid: string
  car: Uint8Array
  /** Where each record's bytes start in `car`, in record order: what the index locates them by. */
  offsets: number[]
  /** Each record's length in bytes, in record order. */
  lengths: number[]
}

function cidOfBlock (bytes: Uint8Array): CID {
  const digest = createHash('sha256').update(bytes).digest()
  return CID.createV1(dagCbor.code, createDigest(SHA2_256, digest))
}

/** Whether `bytes` are the block `cid` names: CIDv1, dag-cbor, sha2-256 of exactly these bytes. */
function hashesTo (bytes: Uint8Array, cid: CID): boolean {
  return cid.version === 1 && cid.code === dagCbor.code && cid.multihash.code === SHA2_256 &&
    Buffer.compare(createHash('sha256').update(bytes).digest(), cid.multihash.digest) === 0
}

/** The CAR v1 of `records` (each a signed record's canonical bytes), in this order. */
export function buildPack (records: readonly Uint8Array[]): BuiltPack {
  const blocks = records.map((bytes) => ({ cid: cidOfBlock(bytes), bytes }))
  const rootBytes = dagCbor.encode(blocks.map((b) => b.cid))
  const root = { cid: cidOfBlock(rootBytes), bytes: rootBytes }
  const headerSize = CarBufferWriter.headerLength({ roots: [root.cid] })
  let size = headerSize + CarBufferWriter.blockLength(root)
  for (const block of blocks) size += CarBufferWriter.blockLength(block)
  const writer = CarBufferWriter.createWriter(new ArrayBuffer(size), { roots: [root.cid], headerSize })
  writer.write(root)
  // A CAR block is <varint length> <CID> <bytes>: its bytes end the block.
  const offsets: number[] = []
  let at = headerSize + CarBufferWriter.blockLength(root)
  for (const block of blocks) {
    writer.write(block)
    at += CarBufferWriter.blockLength(block)
    offsets.push(at - block.bytes.length)
  }
  return { cid: root.cid.toString(), car: writer.close(), offsets, lengths: records.map((bytes) => bytes.length) }
}

function corrupt (cid: string, why: string): IsnadError {
  return new IsnadError('LEDGER_CORRUPT', `pack ${cid}: ${why}`, { details: { pack: cid } })
}

/**
 * The records of a pack's CAR bytes, in order, after checking all of it: one root, the pack's CID;
 * every block's bytes hash to its CID; the root lists exactly the blocks that follow it.
 */
export function readPackCar (cid: string, car: Uint8Array): Uint8Array[] {
  let reader: CarBufferReader
  try {
    reader = CarBufferReader.fromBytes(car)
  } catch (cause) {
    throw new IsnadError('LEDGER_CORRUPT', `pack ${cid}: not a CAR file (${String(cause)})`, { cause, details: { pack: cid } })
  }
  const roots = reader.getRoots()
  if (reader.version !== 1 || roots.length !== 1 || roots[0]?.toString() !== cid) throw corrupt(cid, 'its header does not name it as its one root')
  const [root, ...blocks] = reader.blocks()
  if (root === undefined || !root.cid.equals(roots[0])) throw corrupt(cid, 'its first block is not its root')
  for (const block of [root, ...blocks]) {
    if (!hashesTo(block.bytes, block.cid)) throw corrupt(cid, `block ${String(block.cid)} does not hash to its CID`)
  }
  let links: unknown
  try {
    links = dagCbor.decode(root.bytes)
  } catch (cause) {
    throw new IsnadError('LEDGER_CORRUPT', `pack ${cid}: its root is not DAG-CBOR`, { cause, details: { pack: cid } })
  }
  if (!Array.isArray(links) || links.length !== blocks.length || links.some((link, i) => !(link instanceof CID) || !link.equals(blocks[i]?.cid))) {
    throw corrupt(cid, 'its root does not list the blocks that follow it')
  }
  return blocks.map((b) => b.bytes)
}

/** A pack file's path relative to the data directory, `/`-separated: what a record's location names. */
export function packFileName (scope: string, cid: string): string {
  if (!/^[a-z0-9]+$/.test(cid)) throw new IsnadError('LEDGER_CORRUPT', `pack name ${JSON.stringify(cid.slice(0, 80))} is not a CID`)
  return `${PACKS_DIR}/${scope}/${cid}.car`
}

export function packPath (dataDir: string, scope: string, cid: string): string {
  if (!/^[a-z0-9]+$/.test(cid)) throw new IsnadError('LEDGER_CORRUPT', `pack name ${JSON.stringify(cid.slice(0, 80))} is not a CID`)
  return join(dataDir, PACKS_DIR, scope, `${cid}.car`)
}

/** The payload of the event naming `pack` (its CAR inside when small). */
export function packPayloadOf (pack: BuiltPack, ids: readonly string[], source: string): PackPayload {
  const payload: PackPayload = { pack: pack.cid, records: [...ids], source, bytes: pack.car.length }
  if (pack.car.length <= packInlineMaxOf(source)) payload.car = Buffer.from(pack.car.buffer, pack.car.byteOffset, pack.car.byteLength).toString('base64')
  return payload
}

/** Whether the event's pack is a file (it must be written, durably, before the event). */
export function packNeedsFile (payload: PackPayload): boolean {
  return payload.car === undefined
}

/**
 * Writes a pack file durably (writeFileAtomic: a temporary file, fsync, rename onto its name, fsync
 * of the folder); an identical pack there from an earlier, interrupted try is replaced atomically.
 */
export async function writePackFile (dataDir: string, scope: string, pack: Pick<BuiltPack, 'cid' | 'car'>): Promise<void> {
  await ensureDirectory(join(dataDir, PACKS_DIR, scope))
  await writeFileAtomic(packPath(dataDir, scope, pack.cid), pack.car, LEDGER_FILE_MODE)
}

/** The CAR bytes an event's payload names: inside it, or its file. */
export async function packCarOf (dataDir: string, scope: string, payload: PackPayload): Promise<Uint8Array> {
  if (payload.car !== undefined) {
    // Node's decoder skips characters outside the alphabet: only the canonical text of the bytes is
    // taken (a native round trip, far cheaper than a regular expression over the text).
    const car = Buffer.from(payload.car, 'base64')
    if (car.toString('base64') !== payload.car) throw corrupt(payload.pack, 'its inline CAR is not canonical base64')
    return car
  }
  const path = packPath(dataDir, scope, payload.pack)
  try {
    return await readFile(path)
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') throw new IsnadError('LEDGER_CORRUPT', `pack ${payload.pack} is missing (${path})`, { details: { pack: payload.pack, missing: true } })
    throw ioError('read', path, err)
  }
}

/**
 * The signed records' bytes of a `memory.packed` payload, in the order of its `records` ids, the
 * pack checked whole (readPackCar) and of the length the event says.
 */
export async function readPackRecords (dataDir: string, scope: string, payload: PackPayload): Promise<Uint8Array[]> {
  return (await readPackBlocks(dataDir, scope, payload)).records
}

/** readPackRecords, with where each record's bytes start in the CAR (BuiltPack.offsets). */
export async function readPackBlocks (dataDir: string, scope: string, payload: PackPayload): Promise<{ records: Uint8Array[], offsets: number[] }> {
  const car = await packCarOf(dataDir, scope, payload)
  if (car.length !== payload.bytes) throw corrupt(payload.pack, `it has ${car.length} bytes, its event says ${payload.bytes}`)
  const records = readPackCar(payload.pack, car)
  if (records.length !== payload.records.length) throw corrupt(payload.pack, `it holds ${records.length} records, its event names ${payload.records.length}`)
  // The reader's blocks are views of `car` (@ipld/car's buffer decoder subarrays it).
  const offsets = records.map((bytes) => {
    if (bytes.buffer !== car.buffer) throw corrupt(payload.pack, 'its blocks were copied out of it by the CAR reader')
    return bytes.byteOffset - car.byteOffset
  })
  return { records, offsets }
}

const CAR_MEMBER = Buffer.from('"car":"')

/**
 * Where the base64 text of the CAR starts in a `memory.packed` event's line (its bytes, as written
 * or read): the byte after `"car":"`, which the line holds once (JSON escapes a quote inside any
 * string, so the sequence only occurs as the member itself). -1 when the line has no inline CAR.
 */
export function inlineCarAt (line: Uint8Array): number {
  const at = Buffer.from(line.buffer, line.byteOffset, line.byteLength).indexOf(CAR_MEMBER)
  return at < 0 ? -1 : at + CAR_MEMBER.length
}

/**
 * Removes temporary files an interrupted pack write left (never a pack: one no event names is
 * harmless and may be named by a later event of the same records).
 */
export async function removePackLeftovers (dataDir: string, scope: string): Promise<number> {
  const directory = join(dataDir, PACKS_DIR, scope)
  let names: string[]
  try {
    names = await readdir(directory)
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 0
    throw ioError('read', directory, err)
  }
  const leftovers = names.filter((name) => name.startsWith('.') && name.endsWith('.tmp'))
  for (const name of leftovers) await rm(join(directory, name), { force: true })
  if (leftovers.length > 0) await syncDirectory(directory)
  return leftovers.length
}
