export const aiSettingsKeys = {
  all: ['ai-settings'] as const,
  models: () => [...aiSettingsKeys.all, 'models'] as const,
  workspace: (workspaceId: string) => [...aiSettingsKeys.all, 'workspace', workspaceId] as const,
}
