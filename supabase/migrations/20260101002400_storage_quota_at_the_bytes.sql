-- The workspace storage quota, counted where the bytes are: the sizes Storage records in
-- storage.objects, not what clients declare in documents.size_bytes (issue #14, finding 5: a
-- direct upload stored 40 MB in a 1 MB workspace). A trigger on storage.objects refuses the
-- object that would take its workspace past the quota. Hosted Storage writes an object's row,
-- with metadata.size, in one transaction after receiving the bytes (simple uploads, upserts,
-- TUS and S3 multipart alike: Uploader.completeUpload), and deletes the bytes when that write
-- fails; localbase does the same. So a refused upload leaves neither row nor bytes.

-- Bytes a workspace holds: the documents bucket's objects under `<workspace_id>/`. Security
-- invoker: members reading it see their workspace's objects under RLS; the quota trigger
-- calls it as the database owner, who sees every object.
create function public.workspace_stored_bytes(workspace_id uuid) returns bigint
language sql stable security invoker
set search_path = ''
as $$
  select coalesce(sum((o.metadata ->> 'size')::bigint), 0)::bigint
  from storage.objects o
  where o.bucket_id = 'documents'
    -- Exactly the names starting with '<workspace_id>/' ('0' follows '/'), as a range over
    -- C-ordered names, which hosted Storage indexes (idx_objects_bucket_id_name).
    and o.name collate "C" >= workspace_id::text || '/'
    and o.name collate "C" < workspace_id::text || '0'
$$;

revoke execute on function public.workspace_stored_bytes(uuid) from public, anon;
grant execute on function public.workspace_stored_bytes(uuid) to authenticated, service_role;

-- What the library shows: bytes stored and the quota, for the workspaces the caller is a
-- member of (RLS on workspaces and storage.objects decides).
create view public.workspace_storage with (security_invoker = true) as
select w.id as workspace_id,
  public.workspace_stored_bytes(w.id) as used_bytes,
  w.storage_quota_bytes as quota_bytes
from public.workspaces w;

revoke all on public.workspace_storage from public, anon, authenticated;
grant select on public.workspace_storage to authenticated, service_role;

-- Refuses an object of the documents bucket that would take its workspace past the quota.
-- The object it replaces (an upsert's old version, or the row itself when it moves) is not
-- counted twice, and a write that does not grow the workspace always passes. The errcode is
-- 42501 because hosted Storage renders a 42501 whose message does not mention row-level
-- security as AccessDenied with that message as is ({statusCode: "403", error:
-- "Unauthorized", message}, HTTP 400; TUS: HTTP 403 with the message as its body), while any
-- other code becomes a 500 "database error, code: …" that hides the reason
-- (storage src/storage/database/errors.ts). Its own delete guard uses 42501 the same way.
create function public.enforce_object_quota() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  workspace uuid := public.storage_workspace_id(new.name);
  size bigint := (new.metadata ->> 'size')::bigint;
  quota bigint;
  replaced bigint;
  used bigint;
begin
  if new.bucket_id is distinct from 'documents' or workspace is null then
    return new;
  end if;
  -- The policies read the workspace case-insensitively; the quota counts one spelling.
  if split_part(new.name, '/', 1) <> workspace::text then
    raise exception using errcode = '42501',
      message = 'A document file''s path must start with its workspace id in lower case.';
  end if;
  -- Storage's permission test before the bytes arrive writes no size; the row that records
  -- the received bytes does.
  if size is null then
    return new;
  end if;
  -- Locks the workspace: concurrent uploads into one workspace take turns here, each counting
  -- what those before it stored.
  select w.storage_quota_bytes into quota
  from public.workspaces w where w.id = workspace
  for no key update;
  if not found then
    return new;
  end if;
  -- An update's own row; an upsert's insert fires this trigger before meeting its conflict,
  -- so the object at the same name too.
  select coalesce(sum((o.metadata ->> 'size')::bigint), 0) into replaced
  from storage.objects o
  where (o.id = new.id or (o.bucket_id = new.bucket_id and o.name = new.name))
    and o.bucket_id = 'documents' and public.storage_workspace_id(o.name) = workspace;
  used := public.workspace_stored_bytes(workspace) - replaced;
  if size > replaced and used + size > quota then
    raise exception using
      errcode = '42501',
      message = format('This workspace''s storage is full: "%s" needs %s, and %s of its %s are used.',
        storage.filename(new.name), pg_size_pretty(size), pg_size_pretty(used),
        pg_size_pretty(quota)),
      hint = 'Delete documents you no longer need, or ask for a larger quota.';
  end if;
  return new;
end $$;

create trigger enforce_workspace_quota
before insert or update of bucket_id, name, metadata on storage.objects
for each row execute function public.enforce_object_quota();

-- The documents row stays the early check, so an honest client is refused before it sends
-- any bytes: a new document's declared size must fit beside what the workspace stores (a new
-- version beside the one it replaces, which is stored until the swap). Its figure is the
-- library's. Updates are not checked: size_bytes only describes bytes Storage counts itself.
create or replace function public.enforce_storage_quota() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  quota bigint;
  used bigint;
begin
  if new.size_bytes is null then
    return new;
  end if;
  select w.storage_quota_bytes into quota
  from public.workspaces w where w.id = new.workspace_id
  for no key update;
  used := public.workspace_stored_bytes(new.workspace_id);
  if used + new.size_bytes > quota then
    raise exception using
      errcode = 'QUOTA',
      message = format('This workspace''s storage is full: "%s" needs %s, and %s of its %s are used.',
        new.title, pg_size_pretty(new.size_bytes), pg_size_pretty(used), pg_size_pretty(quota)),
      hint = 'Delete documents you no longer need, or ask for a larger quota.';
  end if;
  return new;
end $$;

drop trigger enforce_storage_quota on public.documents;
create trigger enforce_storage_quota
before insert on public.documents
for each row execute function public.enforce_storage_quota();
