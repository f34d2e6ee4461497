/** The palette a collection's colour comes from (the database accepts these names only). */
export const COLLECTION_COLORS = [
  'gray',
  'red',
  'orange',
  'amber',
  'green',
  'teal',
  'blue',
  'indigo',
  'violet',
  'pink',
] as const

export type CollectionColor = (typeof COLLECTION_COLORS)[number]

/**
 * A dot of the colour, in full strings so Tailwind keeps them. Shades chosen to read against
 * both themes' backgrounds; the name is always written beside the dot, so colour never
 * carries meaning alone.
 */
export const colorDot: Record<CollectionColor, string> = {
  gray: 'bg-slate-500',
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  amber: 'bg-amber-500',
  green: 'bg-green-600',
  teal: 'bg-teal-500',
  blue: 'bg-blue-500',
  indigo: 'bg-indigo-500',
  violet: 'bg-violet-500',
  pink: 'bg-pink-500',
}

export const colorLabel = (color: CollectionColor) => color[0]!.toUpperCase() + color.slice(1)
