export const memberKeys = {
  all: ['members'] as const,
  members: (workspaceId: string) => [...memberKeys.all, workspaceId, 'members'] as const,
  invitations: (workspaceId: string) => [...memberKeys.all, workspaceId, 'invitations'] as const,
  invitation: (token: string) => [...memberKeys.all, 'invitation', token] as const,
  mine: () => [...memberKeys.all, 'mine'] as const,
}
