-- What the auth service adds to the platform schema, applied idempotently at start-up.

-- GoTrue records how each session authenticated; the access token's `amr` comes from here.
create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

create schema if not exists _localbase;

-- MFA (GoTrue's 20221003041349_add_mfa_schema and later): factors and their challenges.
do $$ begin
  create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
exception when duplicate_object then null; end $$;
do $$ begin
  create type auth.factor_status as enum ('unverified', 'verified');
exception when duplicate_object then null; end $$;
create table if not exists auth.mfa_factors (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text,
  last_challenged_at timestamptz unique
);
create unique index if not exists mfa_factors_user_friendly_name_unique
  on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create table if not exists auth.mfa_challenges (
  id uuid not null primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null
);
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);
-- The last time step a factor accepted, so a code is good once (GoTrue keeps no such record).
create table if not exists _localbase.totp_steps (
  factor_id uuid primary key references auth.mfa_factors (id) on delete cascade,
  step bigint not null
);

-- The local dev mailbox: every mail the auth service would send lands here.
create table if not exists _localbase.mailbox (
  id bigint generated always as identity primary key,
  "to" text not null,
  subject text not null,
  text text not null,
  html text not null,
  link text not null,
  created_at timestamptz not null default now()
);
create index if not exists mailbox_to_idx on _localbase.mailbox (lower("to"), id desc);

-- A factor as GoTrue serialises it (models.Factor); the secret never leaves.
create or replace function _localbase.auth_factor(f auth.mfa_factors) returns jsonb
language sql stable as $$
  select jsonb_build_object(
    'id', f.id,
    'factor_type', f.factor_type,
    'status', f.status,
    'created_at', f.created_at,
    'updated_at', f.updated_at,
    'last_challenged_at', f.last_challenged_at
  ) || case when coalesce(trim(f.friendly_name), '') <> ''
    then jsonb_build_object('friendly_name', f.friendly_name) else '{}' end
$$;

-- A user as GoTrue serialises it (docs §3.4): optional fields are omitted when empty.
create or replace function _localbase.auth_user(u auth.users) returns jsonb
language sql stable as $$
  select jsonb_build_object(
    'id', u.id,
    'aud', coalesce(u.aud, ''),
    'role', coalesce(u.role, ''),
    'email', coalesce(u.email, ''),
    'phone', coalesce(u.phone, ''),
    'app_metadata', coalesce(u.raw_app_meta_data, '{}'),
    'user_metadata', coalesce(u.raw_user_meta_data, '{}'),
    'identities', (
      select coalesce(jsonb_agg(jsonb_build_object(
        'identity_id', i.id,
        'id', i.provider_id,
        'user_id', i.user_id,
        'identity_data', i.identity_data,
        'provider', i.provider,
        'last_sign_in_at', i.last_sign_in_at,
        'created_at', i.created_at,
        'updated_at', i.updated_at,
        'email', i.email
      ) order by i.created_at), '[]')
      from auth.identities i where i.user_id = u.id
    ),
    'created_at', u.created_at,
    'updated_at', u.updated_at,
    'is_anonymous', u.is_anonymous
  ) || coalesce((
    -- Listed only when there are any, as GoTrue's `factors,omitempty`.
    select jsonb_build_object('factors', jsonb_agg(_localbase.auth_factor(f) order by f.created_at))
    from auth.mfa_factors f where f.user_id = u.id having count(*) > 0
  ), '{}') || jsonb_strip_nulls(jsonb_build_object(
    'email_confirmed_at', u.email_confirmed_at,
    'phone_confirmed_at', u.phone_confirmed_at,
    'confirmed_at', u.confirmed_at,
    'last_sign_in_at', u.last_sign_in_at,
    'confirmation_sent_at', u.confirmation_sent_at,
    'recovery_sent_at', u.recovery_sent_at,
    'invited_at', u.invited_at,
    'new_email', nullif(u.email_change, ''),
    'email_change_sent_at', u.email_change_sent_at,
    'banned_until', u.banned_until,
    'deleted_at', u.deleted_at
  ))
$$;

-- PKCE: a link's flow, exchanged for a session at POST /token?grant_type=pkce.
create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid references auth.users (id) on delete cascade,
  auth_code text not null,
  code_challenge_method text not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists idx_auth_code on auth.flow_state (auth_code);

-- OAuth 2.1 server clients (GoTrue's oauth_clients): what the admin API registers. Secrets are
-- kept as an unpadded base64url SHA-256, as GoTrue keeps them; deleting one only marks it.
create table if not exists auth.oauth_clients (
  id uuid not null primary key,
  client_secret_hash text,
  registration_type text not null check (registration_type in ('dynamic', 'manual')),
  redirect_uris text not null,
  grant_types text not null,
  client_name text,
  client_uri text,
  logo_uri text,
  client_type text not null default 'confidential'
    check (client_type in ('public', 'confidential')),
  token_endpoint_auth_method text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
