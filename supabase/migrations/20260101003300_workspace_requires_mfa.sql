-- A workspace can require two-factor sign-in. Its members then reach it only from a session
-- that verified a second factor (the access token's `aal` claim is `aal2`); from any other,
-- the workspace and everything in it are invisible, as if they were not a member.
--
-- Every policy decides membership through has_role, is_member, my_workspace_ids,
-- shares_workspace or can_see_conversation, so the requirement is enforced once, in them.
-- The test is written into each as a join on the workspace's primary key, the flag read before
-- the claim (measured on 5,000 messages: within noise of the old policy; a helper function
-- called per row cost 1.7x). is_member alone asks `not exists`, because the statement
-- inserting a workspace checks it before the new row is visible; new workspaces start without
-- the requirement.

alter table public.workspaces add column require_mfa boolean not null default false;
grant update (require_mfa) on public.workspaces to authenticated;

create or replace function public.has_role(workspace_id uuid, min_role text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    join public.workspaces w on w.id = m.workspace_id
    where m.workspace_id = has_role.workspace_id
      and m.user_id = (select auth.uid())
      and array_position(array['viewer', 'editor', 'owner'], m.role)
        >= array_position(array['viewer', 'editor', 'owner'], has_role.min_role)
      and (not w.require_mfa or (select auth.jwt() ->> 'aal') = 'aal2')
  )
$$;

create or replace function public.is_member(workspace_id uuid) returns boolean
language sql volatile security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = is_member.workspace_id and m.user_id = (select auth.uid())
      and ((select auth.jwt() ->> 'aal') = 'aal2'
        or not exists (select 1 from public.workspaces w where w.id = m.workspace_id and w.require_mfa))
  )
$$;

create or replace function public.my_workspace_ids(min_role text default 'viewer')
returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select m.workspace_id from public.workspace_members m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid())
    and array_position(array['viewer', 'editor', 'owner'], m.role)
      >= array_position(array['viewer', 'editor', 'owner'], my_workspace_ids.min_role)
    and (not w.require_mfa or (select auth.jwt() ->> 'aal') = 'aal2')
$$;

create or replace function public.shares_workspace(user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.workspace_members mine
    join public.workspaces w on w.id = mine.workspace_id
    join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
    where mine.user_id = (select auth.uid()) and theirs.user_id = shares_workspace.user_id
      and (not w.require_mfa or (select auth.jwt() ->> 'aal') = 'aal2')
  )
$$;

create or replace function public.can_see_conversation(conversation_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.conversations c
    join public.workspaces w on w.id = c.workspace_id
    join public.workspace_members m
      on m.workspace_id = c.workspace_id and m.user_id = (select auth.uid())
    where c.id = can_see_conversation.conversation_id
      and (c.visibility = 'shared' or c.created_by = (select auth.uid()))
      and (not w.require_mfa or (select auth.jwt() ->> 'aal') = 'aal2')
  )
$$;

-- The caller's workspaces that their session may not open for want of a second factor, so
-- the app can say why and lead them to enrol. Only the id and name: nothing else leaks.
create function public.workspaces_requiring_mfa()
returns table (id uuid, name text)
language sql stable security definer
set search_path = ''
as $$
  select w.id, w.name from public.workspace_members m
  join public.workspaces w on w.id = m.workspace_id
  where m.user_id = (select auth.uid()) and w.require_mfa
    and coalesce((select auth.jwt() ->> 'aal'), '') <> 'aal2'
  order by w.name
$$;

revoke execute on function public.workspaces_requiring_mfa() from public, anon;
grant execute on function public.workspaces_requiring_mfa() to authenticated;

-- An owner turns the requirement on only from a session that has itself verified a second
-- factor, so nobody locks the workspace (and themselves) out by accident.
create function public.check_require_mfa() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.require_mfa and not old.require_mfa
    and (select auth.role()) = 'authenticated'
    and coalesce((select auth.jwt() ->> 'aal'), '') <> 'aal2'
  then
    raise exception 'two-factor sign-in is required to turn this on'
      using errcode = 'P0001',
            hint = 'Add an authenticator app under Account → Security and sign in with it first.';
  end if;
  return new;
end $$;

create trigger check_require_mfa
before update of require_mfa on public.workspaces
for each row execute function public.check_require_mfa();
