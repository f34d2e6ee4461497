export const accessTokenKeys = {
  all: ['access-tokens'] as const,
  list: (workspaceId: string) => [...accessTokenKeys.all, workspaceId] as const,
}
