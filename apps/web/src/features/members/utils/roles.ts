export const roles = ['owner', 'editor', 'viewer'] as const

export type MemberRole = (typeof roles)[number]

/** A role as a label shows it, capitalised in the text rather than by CSS, which screen
 * readers would apply to the description that follows it too. */
export const roleLabels: Record<MemberRole, string> = {
  owner: 'Owner',
  editor: 'Editor',
  viewer: 'Viewer',
}

export const roleDescriptions: Record<MemberRole, string> = {
  owner: 'Everything, including members, roles and settings',
  editor: 'Upload, rename and delete documents',
  viewer: 'Read, search and chat',
}

export function isRole(value: unknown): value is MemberRole {
  return roles.includes(value as MemberRole)
}

/** "an owner", "an editor", "a viewer": a role as a sentence names it. */
export function roleWithArticle(role: string): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`
}
