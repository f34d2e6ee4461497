export const chatKeys = {
  all: ['chat'] as const,
  conversations: (workspaceId: string) => [...chatKeys.all, workspaceId, 'conversations'] as const,
  messages: (conversationId: string) => [...chatKeys.all, 'messages', conversationId] as const,
  people: (workspaceId: string) => [...chatKeys.all, workspaceId, 'people'] as const,
  examples: (workspaceId: string) => [...chatKeys.all, workspaceId, 'examples'] as const,
}
