-- Invitations: an owner invites an email address with a role; the person signed in with
-- that address accepts with the secret token from the invitation link.

create table public.workspace_invitations (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$' and char_length(email) <= 320),
  role text not null default 'viewer' check (role in ('owner', 'editor', 'viewer')),
  token text not null unique default encode(extensions.gen_random_bytes(32), 'hex'),
  invited_by uuid default auth.uid() references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references public.profiles (id) on delete set null
);

-- One pending invitation per address and workspace; a second one is a 409 conflict.
create unique index workspace_invitations_pending_email_idx
on public.workspace_invitations (workspace_id, email) where accepted_at is null;
-- "My pending invitations" looks up by address.
create index workspace_invitations_email_idx
on public.workspace_invitations (email) where accepted_at is null;

create function public.normalize_invitation_email() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.email := lower(btrim(new.email));
  return new;
end $$;

create trigger normalize_invitation_email
before insert or update of email on public.workspace_invitations
for each row execute function public.normalize_invitation_email();

-- The signed-in user's email as the JWT states it, lower-cased.
create function public.jwt_email() returns text
language sql stable
set search_path = ''
as $$
  select lower(auth.jwt() ->> 'email')
$$;

-- Pending invitations addressed to the signed-in user, for reading the workspace's name.
create function public.is_invited(workspace_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_invitations i
    where i.workspace_id = is_invited.workspace_id
      and i.email = public.jwt_email()
      and i.accepted_at is null
      and i.expires_at > now()
  )
$$;

alter table public.workspace_invitations enable row level security;

revoke insert, update, truncate on public.workspace_invitations from anon, authenticated;
grant insert (workspace_id, email, role, invited_by) on public.workspace_invitations to authenticated;
grant update (role, expires_at) on public.workspace_invitations to authenticated;

create policy "Owners and the invitee read invitations" on public.workspace_invitations
for select to authenticated
using (
  public.has_role(workspace_id, 'owner')
  or (email = (select public.jwt_email()) and accepted_at is null)
);

create policy "Owners invite" on public.workspace_invitations
for insert to authenticated
with check (public.has_role(workspace_id, 'owner') and invited_by = (select auth.uid()));

create policy "Owners change pending invitations" on public.workspace_invitations
for update to authenticated
using (public.has_role(workspace_id, 'owner') and accepted_at is null)
with check (public.has_role(workspace_id, 'owner'));

create policy "Owners revoke invitations" on public.workspace_invitations
for delete to authenticated
using (public.has_role(workspace_id, 'owner'));

create policy "Invitees read the workspace they are invited to" on public.workspaces
for select to authenticated
using (public.is_invited(id));
