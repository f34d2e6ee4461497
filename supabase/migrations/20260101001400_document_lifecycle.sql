-- A document's life after its first upload: a per-workspace storage quota that the database
-- enforces (a client can skip its own checks, not this trigger), and replacing a document by
-- a new version in one transaction.

-- Bytes of originals a workspace may hold. Not in authenticated's column grants: the
-- operator sets it (SQL or the service role), not the workspace's owner.
alter table public.workspaces
  add column storage_quota_bytes bigint not null default 1073741824
    check (storage_quota_bytes >= 0);

-- Refuses a document whose size would take its workspace over the quota, with errcode QUOTA
-- (PostgREST: HTTP 400) and a message for people. A new version does not count the
-- version it replaces, which goes when it is swapped in.
create function public.enforce_storage_quota() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  quota bigint;
  used bigint;
begin
  if new.size_bytes is null
    or (tg_op = 'UPDATE' and new.workspace_id = old.workspace_id
        and new.size_bytes <= coalesce(old.size_bytes, 0)) then
    return new;
  end if;
  -- Locks the workspace row, so two uploads cannot both take the last free bytes.
  select w.storage_quota_bytes into quota
  from public.workspaces w where w.id = new.workspace_id
  for no key update;
  select coalesce(sum(d.size_bytes), 0) into used
  from public.documents d
  where d.workspace_id = new.workspace_id and d.id <> new.id
    and d.id is distinct from new.replaces_id;
  if used + new.size_bytes > quota then
    raise exception using
      errcode = 'QUOTA',
      message = format('This workspace''s storage is full: "%s" needs %s, and %s of its %s are used.',
        new.title, pg_size_pretty(new.size_bytes), pg_size_pretty(used), pg_size_pretty(quota)),
      hint = 'Delete documents you no longer need, or ask for a larger quota.';
  end if;
  return new;
end $$;

create trigger enforce_storage_quota
before insert or update of size_bytes, workspace_id on public.documents
for each row execute function public.enforce_storage_quota();

-- Swaps a new version (a documents row whose replaces_id names the current one, fully
-- indexed) in for the current version, in one transaction: the new row becomes ready with
-- the next version number, and the old row goes with its chunks and their vectors. Runs as
-- the caller, so RLS decides (editors and owners). Returns the old original's Storage path:
-- the caller removes it through the Storage API, as hosted Supabase allows no other way.
-- When the old version was deleted meanwhile, the new one simply becomes ready on its own.
-- Other pending versions of the old document move over to the new one, so a later swap
-- replaces the newest version, and deleting the document still takes them along.
create function public.replace_document(new_id uuid)
returns table (id uuid, version int, replaced_storage_path text)
language plpgsql security invoker
set search_path = ''
as $$
declare
  pending public.documents;
  replaced public.documents;
begin
  select * into pending from public.documents d where d.id = new_id;
  if not found then
    raise exception 'document not found' using errcode = 'P0001';
  end if;
  if pending.status = 'failed' then
    raise exception 'a failed version cannot replace a document' using errcode = '22023',
      hint = 'Retry it first.';
  end if;
  if pending.replaces_id is not null then
    select * into replaced from public.documents d where d.id = pending.replaces_id;
    if replaced.workspace_id <> pending.workspace_id then
      raise exception 'a document can only replace one in its own workspace' using errcode = '22023';
    end if;
    -- Other new versions of the same document (failed, or still running) now replace this one.
    update public.documents d set replaces_id = new_id
    where d.replaces_id = pending.replaces_id and d.id <> new_id;
    delete from public.documents d where d.id = pending.replaces_id;
    if not found then
      raise exception 'only editors and owners can replace documents' using errcode = '42501';
    end if;
  end if;
  update public.documents d
  set status = 'ready', stage = 'ready', progress = 1, replaces_id = null,
    version = coalesce(replaced.version + 1, pending.version)
  where d.id = new_id;
  if not found then
    raise exception 'only editors and owners can replace documents' using errcode = '42501';
  end if;
  return query
  select new_id, coalesce(replaced.version + 1, pending.version), replaced.storage_path;
end $$;

revoke execute on function public.replace_document(uuid) from public, anon;
grant execute on function public.replace_document(uuid) to authenticated, service_role;
