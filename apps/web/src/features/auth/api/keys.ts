export const accountKeys = {
  all: ['account'] as const,
  user: () => [...accountKeys.all, 'user'] as const,
  twoFactor: () => [...accountKeys.all, 'two-factor'] as const,
}
