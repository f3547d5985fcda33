import { parentPort } from 'node:worker_threads'
import { wireError, type ReaderInput, type ReaderMessage, type RebuildMessage, type WireChunk } from './reindex-chunks.js'
import { readForReindex } from './reindex-read.js'

/*
 * The reindex reader thread (ReindexReader in reindex-reader.ts): waits for what to read, runs
 * readForReindex and posts its chunks, at most `window` ahead of the ones the rebuild has taken, so
 * a slow rebuild never has the whole ledger queued in memory.
 */

const port = parentPort
if (port === null) throw new Error('reindex-worker runs as a worker thread')
let ahead = 0
let wake: (() => void) | undefined
port.on('message', (message: RebuildMessage) => {
  if (message.kind === 'read') {
    void read(message.input)
    return
  }
  ahead--
  wake?.()
})

async function read (input: ReaderInput): Promise<void> {
  const send = async (chunk: WireChunk): Promise<void> => {
    port?.postMessage(chunk satisfies ReaderMessage)
    ahead++
    while (ahead >= input.window) await new Promise<void>((resolve) => { wake = resolve })
    wake = undefined
  }
  let last: ReaderMessage = { kind: 'done' }
  try {
    await readForReindex(input, send)
  } catch (err) {
    last = { kind: 'failed', error: wireError(err) }
  }
  port?.postMessage(last)
  port?.unref()
}
