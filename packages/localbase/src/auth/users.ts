import type { Transaction } from '../db/database.ts'
import { AuthError } from './errors.ts'
import type { UserJson } from './sessions.ts'

export type UserRow = {
  id: string
  encrypted_password: string | null
  confirmed: boolean
  banned: boolean
  user: UserJson
}

const rowColumns = `id, encrypted_password, email_confirmed_at is not null as confirmed,
  coalesce(banned_until > now(), false) as banned, _localbase.auth_user(users) as user`

export async function findByEmail(tx: Transaction, email: string): Promise<UserRow | null> {
  const { rows } = await tx.query<UserRow>(
    `select ${rowColumns} from auth.users where lower(email) = $1 and not is_anonymous`,
    [email],
  )
  return rows[0] ?? null
}

export async function findById(tx: Transaction, id: string): Promise<UserRow | null> {
  const { rows } = await tx.query<UserRow>(`select ${rowColumns} from auth.users where id = $1`, [
    id,
  ])
  return rows[0] ?? null
}

export const emailExists = () =>
  new AuthError(422, 'email_exists', 'A user with this email address has already been registered')

/** Whether another user has this address, as an account or an identity (IsDuplicatedEmail). */
export async function emailTaken(tx: Transaction, email: string, userId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `select 1 from auth.users where lower(email) = $1 and id <> $2
     union all
     select 1 from auth.identities where email = $1 and user_id <> $2
     limit 1`,
    [email, userId],
  )
  return rows.length > 0
}

export type NewUser = {
  email: string | null
  passwordHash: string | null
  confirmed: boolean
  userMetadata?: Record<string, unknown>
  appMetadata?: Record<string, unknown>
  invited?: boolean
  role?: string
  id?: string
}

// The user and its email identity in one statement, as GoTrue's signupNewUser; an
// app's triggers on auth.users fire here.
const insertSql = `with u as (
    insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
      email_confirmed_at, invited_at, raw_app_meta_data, raw_user_meta_data,
      created_at, updated_at, is_anonymous)
    values ('00000000-0000-0000-0000-000000000000', coalesce($8::uuid, gen_random_uuid()),
      'authenticated', $7, $1::text, $2, case when $3::boolean then now() end, case when $4::boolean then now() end,
      $5::jsonb, $6::jsonb, now(), now(), $1::text is null)
    returning id, email
  ), i as (
    insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at,
      created_at, updated_at)
    select id::text, id, jsonb_build_object('sub', id::text, 'email', email,
      'email_verified', $3::boolean, 'phone_verified', false), 'email', now(), now(), now()
    from u where email is not null
  )
  select id from u`

/** Creates a user; a duplicate email raises 422 email_exists. */
export async function insertUser(tx: Transaction, user: NewUser): Promise<string> {
  // Anonymous users carry no provider (GoTrue's SignupParams.ToUserModel).
  const appMetadata = user.email
    ? { provider: 'email', providers: ['email'], ...user.appMetadata }
    : { ...user.appMetadata }
  try {
    const { rows } = await tx.query<{ id: string }>(insertSql, [
      user.email,
      user.passwordHash,
      user.confirmed,
      user.invited ?? false,
      JSON.stringify(appMetadata),
      JSON.stringify(user.userMetadata ?? {}),
      user.role ?? 'authenticated',
      user.id ?? null,
    ])
    return rows[0]!.id
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw emailExists()
    // Usually an app trigger on auth.users failing; GoTrue words it the same way.
    console.error('[localbase auth] creating a user failed:', error)
    throw new AuthError(500, 'unexpected_failure', 'Database error saving new user')
  }
}

/** An anonymous user who gains an email becomes an email user (UpdateAppMetaDataProviders). */
export const emailProviderSql = (becomesEmailUser: string) =>
  `case when is_anonymous and ${becomesEmailUser} then coalesce(raw_app_meta_data, '{}')
    || '{"provider": "email", "providers": ["email"]}' else raw_app_meta_data end`

/**
 * Merges metadata as GoTrue's UpdateUserMetaData: top-level keys are set, and keys given
 * as null are removed.
 */
export const mergeJsonSql = (column: string, param: string) =>
  `case when ${param}::jsonb is null then ${column} else
    (coalesce(${column}, '{}') || jsonb_strip_nulls(${param}::jsonb))
    - array(select key from jsonb_each(${param}::jsonb) where value = 'null') end`

// Sets the email identity's address (creating it for an anonymous user turning permanent).
export const upsertEmailIdentitySql = `insert into auth.identities (provider_id, user_id,
    identity_data, provider, created_at, updated_at)
  select $1::uuid::text, $1::uuid, jsonb_build_object('sub', $1::uuid::text, 'email', $2::text,
    'email_verified', true, 'phone_verified', false), 'email', now(), now()
  where exists (select 1 from auth.users where id = $1::uuid)
  on conflict (provider_id, provider) do update set updated_at = now(),
    identity_data = identities.identity_data || jsonb_build_object('email', $2::text,
      'email_verified', true)`
