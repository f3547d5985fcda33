import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LocalNode, initHome, type Signer } from '../../../src/node/index.js'
import { auditHome } from './audit-home.js'
import { createAgent } from '../../fixtures/records.js'

/*
 * A checkpoint covers exactly what was durable when it was signed. The failures this guards against
 * (3 of 5 checkpoints `checkpoint_size` with the daemon's heartbeat, 20 of 21 with six
 * writers) came from checkpoints signed while a batch had appended its record events but not yet its
 * Merkle leaves. Here six writers store records through the pipeline while the daemon's periodic
 * work (heartbeat + checkpoint, src/daemon/daemon.ts) runs as fast as it can; then `ledger verify`'s
 * audit, with the index check, must find the ledger healthy, and every checkpoint signed counts.
 */

const writers = [40, 41, 42, 43, 44, 45].map(createAgent)
const signer = (a: { did: string, secretKey: Uint8Array }): Signer => ({ did: a.did, secretKey: a.secretKey })

describe('checkpoints signed while batches are in flight', () => {
  let home: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'isnad-checkpoints-'))
    await initHome(home)
  })
  afterEach(async () => { await rm(home, { recursive: true, force: true }) })

  it('six writers and a heartbeat that checkpoints between every write: every checkpoint verifies, the ledger is healthy', async () => {
    const node = await LocalNode.open({ home })
    let writing = true
    const signed: number[] = []
    const heartbeat = (async () => {
      while (writing) {
        await node.journal.heartbeat({ peers: 0 })
        const checkpoint = await node.journal.checkpoint()
        if (checkpoint !== null && checkpoint.record.size !== signed.at(-1)) signed.push(checkpoint.record.size)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const memories = await Promise.all(writers.map(async (writer, w) => {
      const ids: string[] = []
      for (let i = 0; i < 12; i++) {
        const view = await node.remember({ type: 'observation', summary: `writer ${w} memory ${i}`, tags: ['load'] }, signer(writer))
        ids.push(view.id)
        // Every other writer attests what the previous one wrote: batches touching the same memory.
        const other = writers[(w + 1) % writers.length]
        if (other !== undefined && i % 3 === 0) await node.attest({ memory: view.id, verdict: 'confirm' }, signer(other))
      }
      return ids
    }))
    writing = false
    await heartbeat
    await node.close()
    expect(memories.flat()).toHaveLength(72)
    expect(signed.length, `checkpoints were signed while the writers wrote: ${JSON.stringify(signed)}`).toBeGreaterThan(3)

    const report = await auditHome(home)
    expect(report.findings.map((f) => `${f.kind}: ${f.message}`)).toEqual([])
    expect(report.status).toBe('healthy')
    expect(report.logs.find((l) => l.scope === 'default')?.size).toBe(72 + 6 * 4)
  }, 60_000)
})
