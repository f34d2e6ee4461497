/** Something a question can name with @ to add it to the conversation's scope. */
export type MentionOption = { kind: 'document' | 'collection'; id: string; name: string }

/** The mention being typed: where its @ is and what follows it, up to the caret. */
export type ActiveMention = { start: number; query: string }

const MAX_QUERY = 60

/**
 * The mention the caret is in, if any: an @ at the start or after a space, followed (on the
 * same line) by up to 60 characters. Names have spaces, so the query may too.
 */
export function activeMention(text: string, caret: number): ActiveMention | null {
  const before = text.slice(0, caret)
  const at = before.lastIndexOf('@')
  if (at < 0 || (at > 0 && !/\s/.test(before[at - 1]!))) return null
  const query = before.slice(at + 1)
  if (query.length > MAX_QUERY || query.includes('\n') || query.startsWith(' ')) return null
  return { start: at, query }
}

/** The options whose names contain the query (case and accents aside), those starting with it first. */
export function matchMentions(options: MentionOption[], query: string, limit = 8): MentionOption[] {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()
  const q = fold(query.trim())
  const scored = options.flatMap((option) => {
    const at = fold(option.name).indexOf(q)
    return at < 0 ? [] : [{ option, first: at === 0 ? 0 : 1 }]
  })
  return scored
    .sort((a, b) => a.first - b.first || a.option.name.localeCompare(b.option.name))
    .slice(0, limit)
    .map((s) => s.option)
}

/** The text with the mention (its @ and query) taken out, and where the caret goes. */
export function withoutMention(
  text: string,
  mention: ActiveMention,
): { text: string; caret: number } {
  const end = mention.start + 1 + mention.query.length
  const rest = text.slice(end)
  const head = text.slice(0, mention.start)
  // One space between what was before and after, not two.
  const joined = head.endsWith(' ') && rest.startsWith(' ') ? head + rest.slice(1) : head + rest
  return { text: joined, caret: head.length }
}

type Scope = { document_ids: string[] | null; collection_ids: string[] | null }

/**
 * The scope with a mentioned document or collection added. A conversation about the whole
 * workspace becomes one about just what was mentioned.
 */
export function withMention(scope: Scope, option: MentionOption): Scope {
  const documentIds = scope.document_ids ?? []
  const collectionIds = scope.collection_ids ?? []
  return option.kind === 'document'
    ? { document_ids: [...documentIds, option.id], collection_ids: collectionIds }
    : { document_ids: documentIds, collection_ids: [...collectionIds, option.id] }
}
