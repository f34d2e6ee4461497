export const chatKeys = {
  all: ['chat'] as const,
  conversations: (workspaceId: string) => [...chatKeys.all, workspaceId, 'conversations'] as const,
  // Under the list's key, so a change to the list (realtime) refreshes the open one too.
  conversation: (workspaceId: string, conversationId: string) =>
    [...chatKeys.conversations(workspaceId), conversationId] as const,
  /** The names of what a conversation's scope names (ids in the key: a change reads anew). */
  scope: (workspaceId: string, conversationId: string, ids: string[]) =>
    [...chatKeys.conversation(workspaceId, conversationId), 'scope', ...ids] as const,
  messages: (conversationId: string) => [...chatKeys.all, 'messages', conversationId] as const,
  /** Set (true) when realtime reported the conversation deleted, while this tab had it. */
  deleted: (conversationId: string) => [...chatKeys.all, 'deleted', conversationId] as const,
  people: (workspaceId: string) => [...chatKeys.all, workspaceId, 'people'] as const,
  examples: (workspaceId: string) => [...chatKeys.all, workspaceId, 'examples'] as const,
  mentions: (workspaceId: string) => [...chatKeys.all, workspaceId, 'mentions'] as const,
  library: (workspaceId: string) => [...chatKeys.all, workspaceId, 'library'] as const,
}
