import { ApiError } from './errors.ts'

// Request bodies: JSON objects or arrays of objects, as PostgREST accepts them.

export type JsonObject = Record<string, unknown>

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'PGRST102', 'Empty or invalid json')
  }
}

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An insert body: one object or an array of objects. */
export function rowsOf(value: unknown): JsonObject[] {
  const rows = Array.isArray(value) ? value : [value]
  if (!rows.every(isObject)) throw new ApiError(400, 'PGRST102', 'Empty or invalid json')
  return rows
}
