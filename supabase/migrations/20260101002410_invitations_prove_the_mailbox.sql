-- Invitations prove the mailbox (issue #14, finding 2). Accepting used to need only a
-- signed-in account whose JWT named the invited address, and the invitee could read the
-- token: signing up as someone else's address was enough to join as them. Now:
--   * the token lives in its own table that only the workspace's owners read, so it
--     reaches the invitee only through the mail (or a link an owner copies and sends);
--   * accepting needs that token and an account whose address is the invited one and is
--     confirmed, read from auth.users (JWT claims can be stale or unconfirmed);
--   * invitees see their pending invitations, without the token, through my_invitations();
--   * no account joins any workspace, by any path, before its address is confirmed.

-- The signed-in user's address, lower-cased, once Auth has confirmed it; null otherwise.
create function public.confirmed_email() returns text
language sql stable security definer
set search_path = ''
as $$
  select lower(u.email) from auth.users u
  where u.id = (select auth.uid()) and u.email_confirmed_at is not null
$$;

revoke execute on function public.confirmed_email() from public, anon;
grant execute on function public.confirmed_email() to authenticated, service_role;

-- One secret per invitation. A table of its own rather than a column with column
-- privileges: PostgREST's select=* needs every column, and privileges cannot tell an
-- owner from a viewer, since both are `authenticated`.
create table public.workspace_invitation_tokens (
  invitation_id uuid primary key references public.workspace_invitations (id) on delete cascade,
  token text not null unique default encode(extensions.gen_random_bytes(32), 'hex')
);

comment on table public.workspace_invitation_tokens is
  'The secret of each invitation link: readable by the workspace''s owners only.';

insert into public.workspace_invitation_tokens (invitation_id, token)
select id, token from public.workspace_invitations;

-- Every invitation gets its secret as it is written, whoever writes it.
create function public.add_invitation_token() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  insert into public.workspace_invitation_tokens (invitation_id) values (new.id);
  return null;
end $$;

create trigger add_invitation_token
after insert on public.workspace_invitations
for each row execute function public.add_invitation_token();

alter table public.workspace_invitation_tokens enable row level security;

-- Written only by the trigger and resend_invitation (as definer), removed by the cascade.
revoke all on public.workspace_invitation_tokens from anon, authenticated;
grant select on public.workspace_invitation_tokens to authenticated;

create policy "Owners read invitation links" on public.workspace_invitation_tokens
for select to authenticated
using (
  exists (
    select 1 from public.workspace_invitations i
    where i.id = invitation_id and public.has_role(i.workspace_id, 'owner')
  )
);

-- The functions below are replaced; drop the old ones' dependencies on the column first.
drop policy "Invitees read the workspace they are invited to" on public.workspaces;
drop policy "Owners and the invitee read invitations" on public.workspace_invitations;
drop function public.is_invited(uuid);

alter table public.workspace_invitations drop column token;

-- Invitees read their invitations through my_invitations(), which hides the token.
create policy "Owners read invitations" on public.workspace_invitations
for select to authenticated
using (public.has_role(workspace_id, 'owner'));

-- Pending invitations addressed to the signed-in user's confirmed address: what the
-- invitee may know before joining, and never the token.
create function public.my_invitations()
returns table (
  id uuid,
  workspace_id uuid,
  workspace_name text,
  role text,
  invited_by_name text,
  created_at timestamptz,
  expires_at timestamptz
)
language sql stable security definer
set search_path = ''
as $$
  select i.id, i.workspace_id, w.name, i.role, p.display_name, i.created_at, i.expires_at
  from public.workspace_invitations i
  join public.workspaces w on w.id = i.workspace_id
  left join public.profiles p on p.id = i.invited_by
  where i.email = (select public.confirmed_email())
    and i.accepted_at is null
    and i.expires_at > now()
  order by i.created_at desc
$$;

revoke execute on function public.my_invitations() from public, anon;
grant execute on function public.my_invitations() to authenticated, service_role;

-- Accepts an invitation for the signed-in user; adds the membership, or upgrades it (never
-- downgrades), and returns the workspace id. The token proves the mail reached someone;
-- the confirmed, matching address proves that someone is this account.
create or replace function public.accept_invitation(invitation_token text) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
  address text;
  ranks constant text[] := array['viewer', 'editor', 'owner'];
begin
  if auth.uid() is null then
    raise exception 'sign in to accept an invitation' using errcode = '42501';
  end if;
  address := public.confirmed_email();
  if address is null then
    raise exception 'confirm your email address before accepting an invitation'
      using errcode = '42501',
            hint = 'Open the link in the confirmation mail we sent you, then try again.';
  end if;
  select i.* into invitation
  from public.workspace_invitations i
  join public.workspace_invitation_tokens t on t.invitation_id = i.id
  where t.token = invitation_token
  for update of i;
  if not found then
    raise exception 'invitation not found' using errcode = 'P0001',
      hint = 'The link may be mistyped, or the invitation was revoked.';
  end if;
  if invitation.accepted_at is not null then
    raise exception 'invitation has already been accepted' using errcode = 'P0001';
  end if;
  if invitation.expires_at <= now() then
    raise exception 'invitation has expired' using errcode = 'P0001',
      hint = 'Ask a workspace owner to resend it.';
  end if;
  if invitation.email is distinct from address then
    raise exception 'invitation was sent to another email address' using errcode = 'P0001',
      hint = 'Sign in with the address the invitation was sent to.';
  end if;

  insert into public.workspace_members as m (workspace_id, user_id, role)
  values (invitation.workspace_id, auth.uid(), invitation.role)
  on conflict (workspace_id, user_id) do update
  set role = excluded.role
  where array_position(ranks, excluded.role) > array_position(ranks, m.role);

  update public.workspace_invitations
  set accepted_at = now(), accepted_by = auth.uid()
  where id = invitation.id;
  return invitation.workspace_id;
end $$;

-- What the accept screen shows to whoever holds the token (signed in or not): no rows
-- when the token is unknown.
create or replace function public.get_invitation(invitation_token text)
returns table (
  workspace_id uuid,
  workspace_name text,
  email text,
  role text,
  invited_by_name text,
  expires_at timestamptz,
  accepted_at timestamptz
)
language sql stable security definer
set search_path = ''
as $$
  select i.workspace_id, w.name, i.email, i.role, p.display_name, i.expires_at, i.accepted_at
  from public.workspace_invitation_tokens t
  join public.workspace_invitations i on i.id = t.invitation_id
  join public.workspaces w on w.id = i.workspace_id
  left join public.profiles p on p.id = i.invited_by
  where t.token = invitation_token
$$;

-- Resending gives the invitation a fresh token and seven more days; owners only. The
-- owner reads the new link from workspace_invitation_tokens.
create or replace function public.resend_invitation(invitation_id uuid)
returns setof public.workspace_invitations
language plpgsql security definer
set search_path = ''
as $$
declare
  target public.workspace_invitations;
begin
  select * into target from public.workspace_invitations where id = invitation_id for update;
  if not found or not public.has_role(target.workspace_id, 'owner') then
    raise exception 'invitation not found' using errcode = 'P0001';
  end if;
  if target.accepted_at is not null then
    raise exception 'invitation has already been accepted' using errcode = 'P0001';
  end if;
  update public.workspace_invitation_tokens t
  set token = encode(extensions.gen_random_bytes(32), 'hex')
  where t.invitation_id = resend_invitation.invitation_id;
  return query
  update public.workspace_invitations
  set expires_at = now() + interval '7 days'
  where id = invitation_id
  returning *;
end $$;

-- The JWT's email claim decided acceptance before; nothing reads it now.
drop function public.jwt_email();

-- Every way into a workspace (creating one, accepting an invitation, the service role)
-- writes a membership: the one place to refuse an account whose address is unproven.
create function public.require_confirmed_member() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if not exists (
    select 1 from auth.users u where u.id = new.user_id and u.email_confirmed_at is not null
  ) then
    raise exception 'confirm your email address before joining or creating a workspace'
      using errcode = '42501',
            hint = 'Open the link in the confirmation mail we sent you, then try again.';
  end if;
  return new;
end $$;

create trigger require_confirmed_member
before insert or update of user_id on public.workspace_members
for each row execute function public.require_confirmed_member();
