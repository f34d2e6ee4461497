import bcrypt from 'bcryptjs'
import { validation, weakPassword } from './errors.ts'

// GoTrue stores bcrypt hashes (cost 10); seed files write `$2a$` hashes with pgcrypto.
const COST = 10
// bcrypt only reads 72 bytes; GoTrue refuses longer passwords rather than truncating.
const MAX_BYTES = 72

export function checkStrength(password: string, minLength: number): void {
  if (Buffer.byteLength(password) > MAX_BYTES) {
    throw validation(`Password cannot be longer than ${MAX_BYTES} characters`)
  }
  if (password.length < minLength) {
    throw weakPassword(`Password should be at least ${minLength} characters.`, ['length'])
  }
}

export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, COST)

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !hash.startsWith('$2')) return false
  return bcrypt.compare(password, hash)
}
