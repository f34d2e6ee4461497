-- Workspace access tokens: a member's personal credential for one workspace, used by scripts
-- and MCP clients (the mcp, search and chat functions). Only a SHA-256 hash of the secret is
-- stored; the secret (`sbk_` + 256 random bits) is returned once, by create_access_token.
-- A token never reaches further than its creator: the functions act as that person (RLS
-- decides what they see), within the token's workspace and scope, and the scope is read
-- again against the person's current role on every use.

create table public.access_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  -- read: search, ask, list and read documents; write: also upload.
  scope text not null check (scope in ('read', 'write')),
  -- The first characters of the secret, so a person can tell their tokens apart.
  prefix text not null,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  -- Uses in the current one-minute window (the per-token rate limit).
  window_start timestamptz,
  window_uses int not null default 0
);

create index access_tokens_user_idx on public.access_tokens (user_id, created_at desc);
create index access_tokens_member_idx on public.access_tokens (workspace_id, user_id);

alter table public.access_tokens enable row level security;
revoke all on public.access_tokens from anon, authenticated;
-- Everything but the hash and the rate-limit counters; rows change only through the RPCs.
grant select (id, user_id, workspace_id, name, scope, prefix, created_at, expires_at,
  last_used_at, revoked_at) on public.access_tokens to authenticated;

create policy "members read their own tokens" on public.access_tokens
for select to authenticated
using (user_id = (select auth.uid()));

-- A new token for the caller in a workspace they belong to; answers { id, token }, the only
-- time the secret exists outside the caller's hands. `write` needs editor or owner.
create function public.create_access_token(
  workspace_id uuid,
  name text,
  scope text,
  expires_in_days int default null
) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid constant uuid := auth.uid();
  member_role text;
  secret text;
  token_id uuid;
  clean_name constant text := btrim(coalesce(create_access_token.name, ''));
begin
  if uid is null then
    raise exception 'Sign in to create an access token' using errcode = '42501';
  end if;
  if create_access_token.scope is null or create_access_token.scope not in ('read', 'write') then
    raise exception 'The scope must be read or write' using errcode = '22023';
  end if;
  if char_length(clean_name) not between 1 and 100 then
    raise exception 'Give the token a name of 1 to 100 characters' using errcode = '22023';
  end if;
  if expires_in_days is not null and expires_in_days not between 1 and 3650 then
    raise exception 'A token expires in 1 to 3650 days, or never' using errcode = '22023';
  end if;
  select m.role into member_role from public.workspace_members m
  where m.workspace_id = create_access_token.workspace_id and m.user_id = uid;
  if member_role is null then
    raise exception 'Only members of the workspace can create tokens for it'
      using errcode = '42501';
  end if;
  if create_access_token.scope = 'write' and member_role = 'viewer' then
    raise exception 'A viewer''s token can only read: ask an owner for the editor role to upload'
      using errcode = '42501';
  end if;
  if (select count(*) from public.access_tokens t
      where t.user_id = uid and t.revoked_at is null
        and (t.expires_at is null or t.expires_at > now())) >= 50 then
    raise exception 'You have 50 active tokens: revoke one first' using errcode = '54000';
  end if;
  -- 32 random bytes as unpadded base64url: 43 characters, 256 bits.
  secret := 'sbk_' || rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'),
    '+/', '-_'), '=');
  insert into public.access_tokens (user_id, workspace_id, name, scope, prefix, token_hash,
    expires_at)
  values (uid, create_access_token.workspace_id, clean_name, create_access_token.scope,
    left(secret, 10), encode(extensions.digest(secret, 'sha256'), 'hex'),
    case when expires_in_days is null then null
         else now() + make_interval(days => expires_in_days) end)
  returning id into token_id;
  return jsonb_build_object('id', token_id, 'token', secret);
end $$;

-- Revokes one of the caller's tokens at once (again: no change). Another's token, or none,
-- is 42501 (PostgREST's 403, 401 without a session), the same answer for both so that ids
-- cannot be probed.
create function public.revoke_access_token(id uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  update public.access_tokens t set revoked_at = coalesce(t.revoked_at, now())
  where t.id = revoke_access_token.id and t.user_id = (select auth.uid());
  if not found then
    raise exception 'No such token among yours' using errcode = '42501';
  end if;
end $$;

-- The functions' only way in with a token, granted to the service role alone: who the
-- token acts as, counted against its per-minute limit. Answers jsonb with `status`:
--   'invalid' (unknown or revoked), 'expired', 'rate_limited' (+ retry_after seconds),
--   'ok' with token_id, user_id, email, workspace_id and the effective scope (the token's,
--   narrowed to read when the person is now a viewer).
-- A person no longer in the workspace finds the token revoked (the trigger below does it
-- on removal; the membership read here keeps that true whatever the order of events).
create function public.authenticate_access_token(token text, max_per_minute int)
returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  found public.access_tokens;
  member_role text;
  started timestamptz;
  uses int;
begin
  select * into found from public.access_tokens t
  where t.token_hash = encode(extensions.digest(coalesce(token, ''), 'sha256'), 'hex');
  if found.id is null or found.revoked_at is not null then
    return jsonb_build_object('status', 'invalid');
  end if;
  if found.expires_at is not null and found.expires_at <= now() then
    return jsonb_build_object('status', 'expired');
  end if;
  select m.role into member_role from public.workspace_members m
  where m.workspace_id = found.workspace_id and m.user_id = found.user_id;
  if member_role is null then
    update public.access_tokens set revoked_at = now() where id = found.id;
    return jsonb_build_object('status', 'invalid');
  end if;
  update public.access_tokens t set
    window_start = case when t.window_start is null
                          or t.window_start <= now() - interval '1 minute' then now()
                        else t.window_start end,
    window_uses = case when t.window_start is null
                         or t.window_start <= now() - interval '1 minute' then 1
                       else t.window_uses + 1 end,
    last_used_at = now()
  where t.id = found.id
  returning t.window_start, t.window_uses into started, uses;
  if uses > max_per_minute then
    return jsonb_build_object('status', 'rate_limited', 'retry_after',
      greatest(1, ceil(extract(epoch from started + interval '1 minute' - now())))::int);
  end if;
  return jsonb_build_object(
    'status', 'ok',
    'token_id', found.id,
    'user_id', found.user_id,
    'email', (select u.email from auth.users u where u.id = found.user_id),
    'workspace_id', found.workspace_id,
    'scope', case when member_role = 'viewer' then 'read' else found.scope end
  );
end $$;

revoke execute on function public.authenticate_access_token(text, int) from public, anon,
  authenticated;
grant execute on function public.authenticate_access_token(text, int) to service_role;

-- Removing a member revokes their tokens for the workspace; lowering them to viewer narrows
-- their write tokens to read. At once, in the same transaction as the change.
create function public.narrow_access_tokens() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    update public.access_tokens set revoked_at = now()
    where user_id = old.user_id and workspace_id = old.workspace_id and revoked_at is null;
  elsif new.role = 'viewer' then
    update public.access_tokens set scope = 'read'
    where user_id = new.user_id and workspace_id = new.workspace_id and scope = 'write';
  end if;
  return null;
end $$;

create trigger narrow_access_tokens
after update of role or delete on public.workspace_members
for each row execute function public.narrow_access_tokens();
