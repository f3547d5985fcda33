import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKeystore } from '../../../src/keystore/index.js'
import { openEventLedger } from '../../../src/ledger/index.js'
import { LocalNode, initHome } from '../../../src/node/index.js'
import { nodePaths } from '../../../src/home/index.js'
import { JournalState } from '../../../src/node/journal/journal-state.js'
import { recordsOfEvent } from '../../../src/node/journal/record-events.js'
import { ensureBuilt } from '../../fixtures/build-dist.js'
import { auditHome } from './audit-home.js'

const ROUNDS = Number(process.env.ISNAD_NODE_CRASH_ROUNDS ?? '12')
const CHILD = join(import.meta.dirname, 'crash-node.mjs')

/** Runs the writer until `delayMs` after it is ready, then SIGKILLs it; returns the acknowledged ids. */
async function runAndKill (home: string, iteration: number, witness: string, delayMs: number): Promise<string[]> {
  const child = spawn(process.execPath, [CHILD, home, String(iteration), witness], { stdio: ['ignore', 'pipe', 'pipe'] })
  const acked: string[] = []
  let buffer = ''
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString()
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      for (const line of lines) {
        if (line === 'ready') setTimeout(() => { child.kill('SIGKILL') }, delayMs)
        else if (line.startsWith('ack ')) acked.push(line.slice(4))
      }
    })
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') resolve()
      else reject(new Error(`writer exited ${code}: ${stderr}`))
    })
  })
  return acked
}

/** What the ledger holds: every record's id (per-record events and packs), in lc order, and the keys stored more than once. */
async function ledgerRecords (home: string): Promise<string[] & { repeatedKeys: string[] }> {
  const ledger = await openEventLedger({ dataDir: nodePaths(home).data, scope: 'default' })
  try {
    const ids: string[] = []
    const keys = new Set<string>()
    const repeatedKeys: string[] = []
    for await (const event of ledger.readEvents()) {
      if (keys.has(event.idempotency_key)) repeatedKeys.push(event.idempotency_key)
      keys.add(event.idempotency_key)
      for (const record of await recordsOfEvent(event, nodePaths(home).data)) ids.push(record.id)
    }
    return Object.assign(ids, { repeatedKeys })
  } finally {
    await ledger.close()
  }
}

describe('a writing node killed with SIGKILL at random points', () => {
  it(`recovers every time (${ROUNDS} rounds): no acknowledged record lost, index and Merkle log reconciled with the ledger`, async () => {
    ensureBuilt()
    const home = await mkdtemp(join(tmpdir(), 'isnad-node-crash-'))
    try {
      await initHome(home)
      const witness = (await createKeystore({ directory: join(home, 'keys') }).create({ label: 'witness' })).did
      const acknowledged: string[] = []
      for (let round = 0; round < ROUNDS; round++) {
        acknowledged.push(...await runAndKill(home, round, witness, 50 + Math.floor(Math.random() * 400)))
        // The next start recovers: a writing open replays what the ledger holds beyond the index.
        const node = await LocalNode.open({ home })
        await node.close()

        const ledger = await ledgerRecords(home)
        expect(new Set(ledger).size, `round ${round}: a record journaled twice`).toBe(ledger.length)
        // Idempotency keys written late (with leaves, with indexed_lc) must still hold across the kill.
        expect(ledger.repeatedKeys, `round ${round}: an event stored twice`).toEqual([])
        const inLedger = new Set(ledger)
        for (const id of acknowledged) expect(inLedger.has(id), `round ${round}: acknowledged ${id} lost from the ledger`).toBe(true)

        const reader = await LocalNode.open({ home, mode: 'read' })
        try {
          const counts = await reader.store.count()
          expect(counts.memory + counts.attestation, `round ${round}: index ≠ ledger`).toBe(ledger.length)
          for (const id of acknowledged.slice(-20)) expect(await reader.store.exists(id), `round ${round}: ${id} missing from the index`).toBe(true)
          const sample = ledger.filter((id) => id.length > 0).slice(-5)
          for (const id of sample) {
            const memory = await reader.store.getMemory(id)
            if (memory === null) continue
            expect((await reader.store.getTrust(id))?.score, `round ${round}: indexed trust of ${id}`).toBe((await reader.explainTrust(id)).score)
          }
        } finally {
          await reader.close()
        }
        const state = await JournalState.open(join(nodePaths(home).index, 'journal'))
        try {
          expect(state.merkle.size, `round ${round}: Merkle log ≠ ledger`).toBe(ledger.length)
          expect((await state.latestCheckpoint())?.record.size, `round ${round}: checkpoint`).toBe(ledger.length)
        } finally {
          await state.close()
        }
      }
      expect(acknowledged.length).toBeGreaterThan(ROUNDS)
      // After the automatic recovery on open, `ledger verify` (index check included) finds nothing:
      // a pack file a kill left without its event is never read, so it is no finding either.
      const report = await auditHome(home)
      expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
      expect(report.status).toBe('healthy')
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  }, 180_000)
})
