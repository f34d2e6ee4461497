-- The invitation flow's RPCs. They run as the definer because the caller is not yet a
-- member; each one checks who is asking itself. Errors are P0001 (HTTP 400).

-- Accepts an invitation for the signed-in user whose email it was sent to; adds the
-- membership, or upgrades it (never downgrades), and returns the workspace id.
create function public.accept_invitation(invitation_token text) returns uuid
language plpgsql security definer
set search_path = ''
as $$
declare
  invitation public.workspace_invitations;
  ranks constant text[] := array['viewer', 'editor', 'owner'];
begin
  if auth.uid() is null then
    raise exception 'sign in to accept an invitation' using errcode = '42501';
  end if;
  select * into invitation from public.workspace_invitations
  where token = invitation_token
  for update;
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
  if invitation.email is distinct from public.jwt_email() then
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
create function public.get_invitation(invitation_token text)
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
  from public.workspace_invitations i
  join public.workspaces w on w.id = i.workspace_id
  left join public.profiles p on p.id = i.invited_by
  where i.token = invitation_token
$$;

-- Resending gives the invitation a fresh token and seven more days; owners only.
create function public.resend_invitation(invitation_id uuid)
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
  return query
  update public.workspace_invitations
  set token = encode(extensions.gen_random_bytes(32), 'hex'),
      expires_at = now() + interval '7 days'
  where id = invitation_id
  returning *;
end $$;

revoke execute on function public.accept_invitation(text) from public, anon;
revoke execute on function public.resend_invitation(uuid) from public, anon;
grant execute on function public.accept_invitation(text) to authenticated, service_role;
grant execute on function public.resend_invitation(uuid) to authenticated, service_role;
grant execute on function public.get_invitation(text) to anon, authenticated, service_role;
