import { McpError, ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { cidField, parseOperationInput, type ParsedInput } from '../operations/index.js'
import { levelGuideText } from './level-guide.js'
import { CHAIN_TEMPLATE, readResource, type ReadNode } from './resources.js'

/*
 * The MCP prompt `weigh_memory`: how to weigh a memory by its trust level (level-guide.ts), and,
 * given a memory's `id` (the argument naming rule's name, as in every tool), that memory's isnad
 * chain as an embedded resource to weigh it by.
 */

export const WEIGH_MEMORY = 'weigh_memory'

/** The prompt's arguments, parsed like a table operation's input (a closed object; CID_INVALID for a bad id). */
const weighInput = z.strictObject({
  id: cidField('the memory to weigh (a CID, bafyrei…); absent: the guidance alone').optional()
})
const weighSpec: ParsedInput<typeof weighInput> = { name: WEIGH_MEMORY, input: weighInput }

export const PROMPTS: Prompt[] = [{
  name: WEIGH_MEMORY,
  title: 'Weigh a memory by its trust level',
  description: 'What each trust level (Unverified, Attested, Anchored, Consensus) means and needs, and how far to rely on a memory at that level; with `id`, that memory\'s isnad chain to weigh.',
  arguments: [{ name: 'id', description: weighInput.shape.id.description ?? '', required: false }]
}]

export async function getPrompt (read: ReadNode, name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
  if (name !== WEIGH_MEMORY) throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} not found`)
  let input: z.output<typeof weighInput>
  try {
    input = parseOperationInput(weighSpec, args)
  } catch (err) {
    throw new McpError(ErrorCode.InvalidParams, `${(err as { code?: string }).code ?? 'SCHEMA_INVALID'}: ${(err as Error).message}`)
  }
  const guidance = { role: 'user' as const, content: { type: 'text' as const, text: levelGuideText() } }
  if (input.id === undefined) return { description: PROMPTS[0]?.description, messages: [guidance] }
  const uri = CHAIN_TEMPLATE.uriTemplate.expand({ id: input.id })
  const [chain] = (await readResource(read, uri)).contents
  if (chain === undefined || !('text' in chain)) throw new McpError(ErrorCode.InternalError, `INTERNAL: ${uri} has no text`)
  return {
    description: `Weigh memory ${input.id} by its trust level`,
    messages: [
      guidance,
      { role: 'user', content: { type: 'resource', resource: { uri, mimeType: chain.mimeType ?? 'application/json', text: chain.text } } },
      { role: 'user', content: { type: 'text', text: `Weigh the memory ${input.id} above by its level and chain: how far can it be relied on, and what would raise or lower that?` } }
    ]
  }
}
