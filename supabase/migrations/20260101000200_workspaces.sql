-- Workspaces and their members, the role helpers every policy calls, and the rules that
-- the database itself enforces: the creator becomes owner, a workspace keeps an owner.

create table public.workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 100),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  -- AI settings chosen by an owner; null means the server's default.
  chat_model text check (char_length(chat_model) between 1 and 200),
  embedding_model text check (char_length(embedding_model) between 1 and 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.workspace_members (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  -- References profiles (which cascade from auth.users) so the API can embed names.
  user_id uuid not null references public.profiles (id) on delete cascade,
  role text not null default 'viewer' check (role in ('owner', 'editor', 'viewer')),
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);

-- Policies look memberships up by user first ("my workspaces", "fellow members").
create index workspace_members_user_id_idx on public.workspace_members (user_id, workspace_id);
create index workspaces_created_by_idx on public.workspaces (created_by);

-- Role order: owner > editor > viewer. An unknown min_role grants nothing.
create function public.has_role(workspace_id uuid, min_role text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = has_role.workspace_id
      and m.user_id = (select auth.uid())
      and array_position(array['viewer', 'editor', 'owner'], m.role)
        >= array_position(array['viewer', 'editor', 'owner'], has_role.min_role)
  )
$$;

-- Volatile on purpose: the workspaces select policy must see the owner membership that
-- the BEFORE INSERT trigger has just written, so that `insert(...).select()` works. A
-- stable function would read the statement's older snapshot and refuse the new row.
create function public.is_member(workspace_id uuid) returns boolean
language sql volatile security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.workspace_members m
    where m.workspace_id = is_member.workspace_id and m.user_id = (select auth.uid())
  )
$$;

-- True when the signed-in user and `user_id` share at least one workspace.
create function public.shares_workspace(user_id uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.workspace_members mine
    join public.workspace_members theirs on theirs.workspace_id = mine.workspace_id
    where mine.user_id = (select auth.uid()) and theirs.user_id = shares_workspace.user_id
  )
$$;

-- Names are stored trimmed, so "  Research " and "Research" are the same name.
create function public.normalize_workspace() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.name := btrim(new.name);
  return new;
end $$;

create trigger normalize_workspace
before insert or update of name on public.workspaces
for each row execute function public.normalize_workspace();

create trigger touch_updated_at
before update on public.workspaces
for each row execute function public.touch_updated_at();

-- The creator becomes owner before the row is visible, so that
-- `insert(...).select()` passes the select policy in the same statement.
create function public.add_workspace_creator() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if new.created_by is null then
    raise exception 'a workspace needs a creator'
      using errcode = 'P0001', hint = 'Sign in, or set created_by when using the service role.';
  end if;
  insert into public.workspace_members (workspace_id, user_id, role)
  values (new.id, new.created_by, 'owner');
  return new;
end $$;

-- The membership row is written by a BEFORE trigger, before its workspace row exists,
-- so that foreign key is checked at commit.
alter table public.workspace_members
  alter constraint workspace_members_workspace_id_fkey deferrable initially deferred;

create trigger add_workspace_creator
before insert on public.workspaces
for each row execute function public.add_workspace_creator();

-- A workspace always keeps an owner. Checked after each change, so a statement that
-- promotes someone and demotes the old owner together is fine. Deleting the workspace
-- cascades freely. When a sole owner's account is deleted, the most senior remaining
-- member (editors before viewers, then the longest-standing) becomes owner, and a
-- workspace left with nobody goes with its last member.
create function public.keep_an_owner() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if old.role <> 'owner'
    or not exists (select 1 from public.workspaces w where w.id = old.workspace_id)
    or exists (
      select 1 from public.workspace_members m
      where m.workspace_id = old.workspace_id and m.role = 'owner'
    )
  then
    return null;
  end if;
  if exists (select 1 from public.profiles p where p.id = old.user_id) then
    raise exception 'a workspace must keep at least one owner'
      using errcode = 'P0001',
            hint = 'Make another member an owner first, or delete the workspace.';
  end if;
  update public.workspace_members set role = 'owner'
  where (workspace_id, user_id) = (
    select m.workspace_id, m.user_id from public.workspace_members m
    where m.workspace_id = old.workspace_id
    order by array_position(array['owner', 'editor', 'viewer'], m.role), m.created_at
    limit 1
  );
  if not found then
    delete from public.workspaces where id = old.workspace_id;
  end if;
  return null;
end $$;

create trigger keep_an_owner
after update of role or delete on public.workspace_members
for each row execute function public.keep_an_owner();

alter table public.workspaces enable row level security;
alter table public.workspace_members enable row level security;

-- Columns a client may write; ids, creators and timestamps are the database's business.
revoke insert, update on public.workspaces from anon, authenticated;
grant insert (name, chat_model, embedding_model, created_by) on public.workspaces to authenticated;
grant update (name, chat_model, embedding_model) on public.workspaces to authenticated;
revoke insert, update, truncate on public.workspace_members from anon, authenticated;
grant update (role) on public.workspace_members to authenticated;

create policy "Members read their workspaces" on public.workspaces
for select to authenticated
using (public.is_member(id));

create policy "Anyone signed in creates a workspace" on public.workspaces
for insert to authenticated
with check (created_by = (select auth.uid()));

create policy "Owners rename workspaces" on public.workspaces
for update to authenticated
using (public.has_role(id, 'owner'))
with check (public.has_role(id, 'owner'));

create policy "Owners delete workspaces" on public.workspaces
for delete to authenticated
using (public.has_role(id, 'owner'));

create policy "Members read fellow members" on public.workspace_members
for select to authenticated
using (public.is_member(workspace_id));

create policy "Owners change roles" on public.workspace_members
for update to authenticated
using (public.has_role(workspace_id, 'owner'))
with check (public.has_role(workspace_id, 'owner'));

create policy "Owners remove members, members leave" on public.workspace_members
for delete to authenticated
using (user_id = (select auth.uid()) or public.has_role(workspace_id, 'owner'));

create policy "Members read fellow members' profiles" on public.profiles
for select to authenticated
using (public.shares_workspace(id));

-- Role changes and removals show up live in the member list.
alter publication supabase_realtime add table public.workspace_members;
