-- A refused upload names the file the person chose, not the document's title: titles are now
-- readable ones made from the file name (20260101003000_document_file_names.sql), and
-- "more.txt" is what the person dropped. default_file_name fires before this trigger (names
-- in order), so the file name is there for old clients too. Otherwise as in
-- 20260101002400_storage_quota_at_the_bytes.sql.
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
        coalesce(new.file_name, new.title), pg_size_pretty(new.size_bytes), pg_size_pretty(used),
        pg_size_pretty(quota)),
      hint = 'Delete documents you no longer need, or ask for a larger quota.';
  end if;
  return new;
end $$;
