import type { InboxItem } from '../../operations/index.js'
import type { KeyInfo } from '../../keystore/index.js'
import type { Api } from './api.js'
import { byId, h, replaceChildren, safeText, shortId } from './dom.js'
import { escapeBidiControls } from './text.js'

/*
 * The inbox: witness requests waiting for this node's agents, each answered from here with
 * confirm, dispute or partial (the node signs with the chosen local key; keys never reach the page).
 */

export interface InboxPanel {
  load: () => Promise<void>
  /** Empties the list (the daemon went away). */
  clear: () => void
}

export interface InboxEvents {
  /** After an attestation was stored: the memory it witnesses. */
  attested: (memory: string, attestation: string) => void
  report: (err: unknown) => void
}

const VERDICTS = ['confirm', 'dispute', 'partial'] as const

export function createInboxPanel (api: Api, events: InboxEvents): InboxPanel {
  const list = byId('inbox-list')
  const passphrase = byId<HTMLInputElement>('passphrase')
  const status = byId('inbox-status')

  const attest = async (item: InboxItem, verdict: typeof VERDICTS[number], form: { as: HTMLSelectElement, notes: HTMLInputElement, claims: HTMLInputElement }, keys: KeyInfo[]): Promise<void> => {
    const claims = form.claims.value.split(',').map((c) => c.trim()).filter((c) => c !== '')
    if (verdict === 'partial' && claims.length === 0) {
      status.textContent = 'A partial attestation names what it confirms: write the claims (comma-separated) first.'
      return
    }
    const body = {
      verdict,
      as: form.as.value,
      ...(form.notes.value.trim() === '' ? {} : { notes: form.notes.value.trim() }),
      ...(verdict === 'partial' ? { claims } : {}),
      ...(passphrase.value === '' ? {} : { passphrase: passphrase.value })
    }
    try {
      const result = await api.post<{ attestation: string }>(`/v1/memories/${encodeURIComponent(item.memory)}/attestations`, body)
      const label = keys.find((k) => k.did === form.as.value)?.label
      status.textContent = escapeBidiControls(`${verdict} signed by ${label ?? shortId(form.as.value)}: attestation ${result.attestation}`)
      events.attested(item.memory, result.attestation)
      await load()
    } catch (err) {
      events.report(err)
    }
  }

  const renderItem = (item: InboxItem, keys: KeyInfo[]): HTMLElement => {
    // Addressed requests are answered by the addressed agents; open ones by any local agent.
    const candidates = item.to.length > 0 ? item.to : keys.map((k) => k.did)
    const preferred = keys.find((k) => k.default && candidates.includes(k.did))?.did ?? candidates[0]
    const as = h('select', { 'aria-label': 'sign as', 'data-testid': 'attest-as' },
      ...candidates.map((did) => {
        const label = keys.find((k) => k.did === did)?.label
        const option = h('option', { value: did }, escapeBidiControls(`${label === undefined ? '' : `${label} `}${shortId(did)}`))
        option.selected = did === preferred
        return option
      }))
    const notes = h('input', { type: 'text', placeholder: 'notes (optional)', 'aria-label': 'notes' })
    const claims = h('input', { type: 'text', placeholder: 'for partial: claims, comma-separated', 'aria-label': 'claims' })
    const buttons = VERDICTS.map((verdict) => {
      const button = h('button', { type: 'button', class: `verdict ${verdict}`, 'data-testid': `attest-${verdict}` }, verdict)
      button.addEventListener('click', () => { void attest(item, verdict, { as, notes, claims }, keys) })
      return button
    })
    return h('div', { class: 'inbox-item', 'data-testid': 'inbox-item', 'data-memory': item.memory },
      h('p', {}, h('strong', {}, item.summary === undefined ? '(memory not held by this node yet)' : safeText(item.summary)), item.type === undefined ? '' : ` [${item.type}]`),
      h('p', { class: 'mono small' }, `memory ${item.memory}`),
      h('p', { class: 'small' }, `from ${shortId(item.requester)} · ${item.created_at}${item.expires_at === undefined ? '' : ` · expires ${item.expires_at}`} · ${item.drawn === true ? 'drawn witness (nobody asked)' : item.to.length === 0 ? 'open request' : 'addressed to this node'}`),
      h('div', { class: 'attest-form' }, as, notes, claims, ...buttons))
  }

  const load = async (): Promise<void> => {
    try {
      const [{ items }, keys] = await Promise.all([api.get<{ items: InboxItem[] }>('/v1/inbox'), api.get<KeyInfo[]>('/v1/ids')])
      if (items.length === 0) {
        replaceChildren(list, h('p', { class: 'empty', 'data-testid': 'empty-inbox' }, 'Inbox empty: no witness request waits for this node\'s agents.'))
        return
      }
      replaceChildren(list, ...items.map((item) => renderItem(item, keys)))
    } catch (err) {
      events.report(err)
    }
  }
  return { load, clear: () => { list.replaceChildren(); status.textContent = '' } }
}
