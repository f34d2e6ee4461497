-- Crash recovery: a document whose import stopped (the server was killed, the tab closed, the
-- importer died) stays 'processing' with partial chunks for good. This function finds them by
-- their heartbeat: while a step runs, the importer rewrites its documents row every 15 s
-- (ProgressReporter's HEARTBEAT_MS), which touches updated_at. A row untouched for
-- `stale_after` (default 2 minutes, eight missed heartbeats, and past the one minute after
-- which the library already shows it as interrupted) has no live importer. It becomes
-- 'failed' with an error saying it was interrupted (so Retry, and the importer given the same
-- file, resume it under the same id), and its partial chunks (their vectors and BM25
-- statistics go with them, by cascade and by track_chunk_stats) and text are removed, all in
-- the one transaction of the call. Failed documents hold no chunks either; any left by a
-- writer that outlived its document's failure go too. Idempotent: a second call finds
-- nothing. Originals stay in Storage for the retry.
--
-- localbase calls it on start and every minute; a hosted project schedules it with pg_cron
-- (see the README). Security definer, to reach every workspace, so only the service role
-- (and the database owner, for pg_cron) may call it.
create function public.reap_interrupted_documents(stale_after interval default interval '2 minutes')
returns integer
language plpgsql security definer
set search_path = ''
as $$
declare
  reaped uuid[];
begin
  if stale_after is null or stale_after < interval '0' then
    raise exception 'stale_after must be a non-negative interval' using errcode = '22023';
  end if;
  -- skip locked: a row an importer is writing right now is alive by definition.
  select coalesce(array_agg(d.id), '{}') into reaped
  from (
    select d.id from public.documents d
    where d.status in ('queued', 'processing') and d.updated_at < now() - stale_after
    for update skip locked
  ) d;
  delete from public.chunks c
  using public.documents d
  where c.document_id = d.id and (d.id = any (reaped) or d.status = 'failed');
  delete from public.document_texts t
  using public.documents d
  where t.document_id = d.id and (d.id = any (reaped) or d.status = 'failed');
  update public.documents d
  set status = 'failed', progress = 0, chunk_count = 0,
    error = 'Interrupted: the import stopped before it finished. Retry it, or import the file again.'
  where d.id = any (reaped);
  return cardinality(reaped);
end $$;

revoke execute on function public.reap_interrupted_documents(interval) from public, anon, authenticated;
grant execute on function public.reap_interrupted_documents(interval) to service_role;
