-- Term statistics once per document (issues #16 and #17). Chunk inserts were cut into short
-- statements (some 15 chunks of prose each) so that none holds a self-hosted server for long,
-- and track_chunk_stats then upserted every common term once per short insert instead of once
-- per 500 chunks: the statistics became the largest part of an import's database time, and
-- left a dead chunk_term_stats row per term and insert for vacuum to clear.
--
-- search_chunks passes over the chunks of documents that are not ready, so their statistics
-- are not needed before: chunk_term_stats and workspace_chunk_stats now count the chunks of
-- ready documents, each document's once, on its way to ready. So that no statement holds the
-- database long, an importer first counts a document's chunks a few hundred at a time, in
-- ordinal order (count_document_stats), and the update that makes it ready counts what is
-- left. Until then a document is counted in part: its chunks below
-- document_stats_counts.counted_below. Chunks written while they are counted (a re-index of
-- their lexemes, a chunk added or removed by hand, a failed import's cleanup) are counted or
-- subtracted by their own statement as before; a document that goes, or whose status changes
-- other than to ready, gives back what was counted of it. Every path that makes a document
-- ready (indexDocument's final update, replace_document's swap, a retry) or removes chunks
-- (failDocument, reap_interrupted_documents, a delete, a replaced version's cascade) goes
-- through one of the triggers below.

-- The statements that subtract the chunks `removed` yields from the statistics and add those
-- `added` yields (either may be null): queries of (workspace_id, lexemes, lexeme_count) over
-- transition tables or the chunks table, never request text. Built here and executed by the
-- callers themselves, as only trigger functions see their transition tables. As in
-- 20260101004400_chunk_stats_delete_by_key.sql: the workspace's row first (it serialises
-- writers of one workspace), removed terms deleted by key then updated, new peaks merged in
-- one pass, upserts in key order.
create function public.chunk_stats_statements(removed text, added text) returns text[]
language plpgsql immutable
set search_path = ''
as $$
declare
  statements text[] := '{}';
begin
  if removed is not null then
    statements := statements || format('
      update public.workspace_chunk_stats s
      set chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len
      from (select workspace_id, count(*) as n, sum(lexeme_count) as len
            from %s r group by workspace_id) g
      where s.workspace_id = g.workspace_id', removed);
    statements := statements || format('
      delete from public.chunk_term_stats s
      using (select r.workspace_id, t.lexeme as term, count(*) as n
             from %s r cross join lateral unnest(r.lexemes) t group by 1, 2) g
      where s.workspace_id = g.workspace_id and s.term = g.term and s.chunk_freq <= g.n',
      removed);
    statements := statements || format('
      update public.chunk_term_stats s set chunk_freq = s.chunk_freq - g.n
      from (select r.workspace_id, t.lexeme as term, count(*) as n
            from %s r cross join lateral unnest(r.lexemes) t group by 1, 2) g
      where s.workspace_id = g.workspace_id and s.term = g.term', removed);
  end if;
  if added is not null then
    statements := statements || format('
      insert into public.workspace_chunk_stats as s (workspace_id, chunk_count, total_length)
      select workspace_id, count(*), sum(lexeme_count) from %s r
      group by workspace_id order by workspace_id
      on conflict (workspace_id) do update
      set chunk_count = s.chunk_count + excluded.chunk_count,
          total_length = s.total_length + excluded.total_length', added);
    statements := statements || format('
      with added as (
        select r.workspace_id, t.lexeme as term, cardinality(t.positions) as tf,
          r.lexeme_count as len
        from %s r cross join lateral unnest(r.lexemes) t
      ),
      counts as (select workspace_id, term, count(*) as n from added group by 1, 2),
      pairs as (
        select workspace_id, term, tf, min(len) as len
        from (
          select workspace_id, term, tf, len from added
          union all
          select k.workspace_id, k.term, k.peaks[i][1], k.peaks[i][2]
          from public.chunk_term_stats k join counts using (workspace_id, term)
          cross join lateral generate_subscripts(k.peaks, 1) i
        ) p
        group by 1, 2, 3
      ),
      peaks as (
        select workspace_id, term, array_agg(array[tf, len] order by tf) as peaks
        from (
          select p.*, min(len) over (partition by workspace_id, term order by tf desc
                                     rows between unbounded preceding and 1 preceding) as beaten_at
          from pairs p
        ) r
        where beaten_at is null or len < beaten_at
        group by 1, 2
      )
      insert into public.chunk_term_stats as s (workspace_id, term, chunk_freq, peaks)
      select workspace_id, term, counts.n, peaks.peaks
      from counts join peaks using (workspace_id, term)
      order by 1, 2
      on conflict (workspace_id, term) do update
      set chunk_freq = s.chunk_freq + excluded.chunk_freq, peaks = excluded.peaks', added);
  end if;
  return statements;
end $$;

revoke execute on function public.chunk_stats_statements(text, text) from public, anon, authenticated;

-- A document counted in part: its chunks whose ordinal is below `counted_below`. No row:
-- nothing of it is counted, or (when it is ready) all of it. Written by the functions below
-- alone (row-level security with no policy).
create table public.document_stats_counts (
  document_id uuid primary key references public.documents (id) on delete cascade,
  counted_below int not null
);
alter table public.document_stats_counts enable row level security;
revoke all on public.document_stats_counts from anon, authenticated;

-- Chunk writes: the rows counted (of a ready document, or below where its count has reached)
-- count, and a write to documents none of which is counted at all (every insert of an import)
-- stops at the check. The documents are locked first (share, which a status change, a count
-- or a delete waits for, and which waits for them): on a server with concurrent writers,
-- chunks written while their document is being counted are then counted once, by whichever
-- statement comes second, never by neither. A chunk deleted with its document (the cascade)
-- finds no document: the document's own delete gave back what was counted of it.
create or replace function public.track_chunk_stats() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  source constant text := '(select %1$s.workspace_id, %1$s.lexemes, %1$s.lexeme_count
    from %2$s %1$s join public.documents d on d.id = %1$s.document_id
    left join public.document_stats_counts p on p.document_id = d.id
    where (d.status = ''ready'' or %1$s.ordinal < p.counted_below) %3$s)';
  changed constant text := 'and exists (select from old_rows o2 join new_rows n2 on n2.id = o2.id
    where n2.id = %1$s.id
      and (n2.lexemes is distinct from o2.lexemes or n2.document_id <> o2.document_id
           or n2.ordinal <> o2.ordinal))';
  removed text := case tg_op
    when 'DELETE' then format(source, 'r', 'old_rows', '')
    when 'UPDATE' then format(source, 'o', 'old_rows', format(changed, 'o')) end;
  added text := case tg_op
    when 'INSERT' then format(source, 'r', 'new_rows', '')
    when 'UPDATE' then format(source, 'n', 'new_rows', format(changed, 'n')) end;
  documents uuid[];
  statement text;
begin
  if tg_op = 'INSERT' then
    select array_agg(distinct r.document_id) into documents from new_rows r;
  elsif tg_op = 'DELETE' then
    select array_agg(distinct r.document_id) into documents from old_rows r;
  else
    select array_agg(distinct r.document_id) into documents
    from (select document_id from old_rows union select document_id from new_rows) r;
  end if;
  perform from public.documents d where d.id = any (documents) order by d.id for share;
  if not exists (
    select from public.documents d
    where d.id = any (documents)
      and (d.status = 'ready'
           or exists (select from public.document_stats_counts p where p.document_id = d.id))
  ) then
    return null;
  end if;
  foreach statement in array public.chunk_stats_statements(removed, added) loop
    execute statement;
  end loop;
  return null;
end $$;

-- Adds (`sign` 1) or subtracts (-1) one document's chunks with ordinals from `from_ordinal`
-- and below `below` (null: no bound), found by the (document_id, ordinal) index.
create function public.apply_document_stats(document uuid, sign int, from_ordinal int, below int)
returns void
language plpgsql security definer
set search_path = ''
as $$
declare
  chunks constant text := format(
    '(select c.workspace_id, c.lexemes, c.lexeme_count from public.chunks c
      where c.document_id = %L and c.ordinal >= %s and c.ordinal < %s)',
    document, coalesce(from_ordinal, 0), coalesce(below, 2147483647));
  statement text;
begin
  foreach statement in array public.chunk_stats_statements(
    case when sign < 0 then chunks end, case when sign > 0 then chunks end) loop
    execute statement;
  end loop;
end $$;

revoke execute on function public.apply_document_stats(uuid, int, int, int)
from public, anon, authenticated;

-- The next `max_chunks` chunks (by ordinal) of a document being indexed into the statistics:
-- one short statement per call, instead of the whole document in the update that makes it
-- ready. Returns how many it counted: fewer than `max_chunks` once none are left. For editors
-- and owners of the document's workspace (and the service role).
create function public.count_document_stats(document_id uuid, max_chunks int default 200)
returns int
language plpgsql security definer
set search_path = ''
as $$
declare
  doc public.documents;
  counted_from int;
  last_ordinal int;
  counted int;
begin
  if max_chunks is null or max_chunks < 1 then
    raise exception 'max_chunks must be at least 1' using errcode = '22023';
  end if;
  select * into doc from public.documents d where d.id = count_document_stats.document_id
  for no key update;
  if not found
     or not (public.has_role(doc.workspace_id, 'editor') or (select auth.role()) = 'service_role')
  then
    raise exception 'document not found' using errcode = 'P0001';
  end if;
  -- A ready document is counted in full already.
  if doc.status = 'ready' then
    return 0;
  end if;
  select coalesce(max(p.counted_below), 0) into counted_from
  from public.document_stats_counts p where p.document_id = doc.id;
  select max(c.ordinal), count(*) into last_ordinal, counted
  from (
    select c.ordinal from public.chunks c
    where c.document_id = doc.id and c.ordinal >= counted_from
    order by c.ordinal limit max_chunks
  ) c;
  if counted = 0 then
    return 0;
  end if;
  perform public.apply_document_stats(doc.id, 1, counted_from, last_ordinal + 1);
  insert into public.document_stats_counts as p (document_id, counted_below)
  values (doc.id, last_ordinal + 1)
  on conflict on constraint document_stats_counts_pkey
  do update set counted_below = excluded.counted_below;
  return counted;
end $$;

revoke execute on function public.count_document_stats(uuid, int) from public, anon;
grant execute on function public.count_document_stats(uuid, int) to authenticated, service_role;

-- A status change: to ready counts what is left of the document (all of it, or its chunks
-- from where its count stopped); from ready, or to another status while counted in part (a
-- failed or reaped import), gives back what was counted. Only updates that set the status to
-- another value get here, so the progress and heartbeat writes of an import cost nothing.
create function public.track_document_stats() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  below int;
begin
  delete from public.document_stats_counts p where p.document_id = new.id
  returning p.counted_below into below;
  if new.status = 'ready' then
    perform public.apply_document_stats(new.id, 1, below, null);
  elsif old.status = 'ready' then
    perform public.apply_document_stats(new.id, -1, null, null);
  elsif below is not null then
    perform public.apply_document_stats(new.id, -1, null, below);
  end if;
  return null;
end $$;

create trigger track_document_stats
after update of status on public.documents
for each row when (old.status is distinct from new.status)
execute function public.track_document_stats();

-- A document's delete gives back what was counted of it before its chunks go by cascade (the
-- cascade's own statement no longer finds the document). Nothing to do when its workspace is
-- going too: the statistics go with the workspace.
create function public.untrack_deleted_document() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  below int;
begin
  if not exists (select from public.workspaces w where w.id = old.workspace_id) then
    return old;
  end if;
  if old.status = 'ready' then
    perform public.apply_document_stats(old.id, -1, null, null);
  else
    select p.counted_below into below
    from public.document_stats_counts p where p.document_id = old.id;
    if found then
      perform public.apply_document_stats(old.id, -1, null, below);
    end if;
  end if;
  return old;
end $$;

create trigger untrack_deleted_document
before delete on public.documents
for each row execute function public.untrack_deleted_document();

revoke execute on function public.track_document_stats() from public, anon, authenticated;
revoke execute on function public.untrack_deleted_document() from public, anon, authenticated;

-- A chunk's lexemes computed once per insert: as two generated columns, the lexemes and their
-- count each ran the text search parser over the chunk's text, some 0.8 ms a chunk of prose
-- and a quarter of a short insert's time (bench/chunk-insert-profile.ts). They become plain
-- columns (their values and indexes kept, no rewrite), which a trigger sets from the same
-- expressions as 20260101005000_table_header_lexemes.sql, parsing the text once, on every
-- insert and on any update that names the text, the heading path or the columns themselves
-- (so nobody writes other values into them).
alter table public.chunks
  alter column lexemes drop expression,
  alter column lexeme_count drop expression;

create function public.index_chunk() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.lexemes := public.bm25_lexemes(public.chunk_index_text(new.heading_path, new.content));
  new.lexeme_count := public.tsvector_token_count(new.lexemes);
  return new;
end $$;

create trigger index_chunk
before insert or update of content, heading_path, lexemes, lexeme_count on public.chunks
for each row execute function public.index_chunk();

-- The statistics counted anew from the ready documents' chunks, as
-- 20260101005000_table_header_lexemes.sql counted them from all chunks: the chunks of
-- documents still processing, and those a failed import left, leave them.
delete from public.chunk_term_stats;
delete from public.workspace_chunk_stats;

insert into public.workspace_chunk_stats (workspace_id, chunk_count, total_length)
select c.workspace_id, count(*), sum(c.lexeme_count)
from public.chunks c
join public.documents d on d.id = c.document_id and d.status = 'ready'
group by c.workspace_id;

insert into public.chunk_term_stats (workspace_id, term, chunk_freq, peaks)
select workspace_id, term, sum(n), array_agg(array[tf, len] order by tf)
  filter (where beaten_at is null or len < beaten_at)
from (
  select p.*, min(len) over (partition by workspace_id, term order by tf desc
                             rows between unbounded preceding and 1 preceding) as beaten_at
  from (
    select c.workspace_id, t.lexeme as term, cardinality(t.positions) as tf,
      min(c.lexeme_count) as len, count(*) as n
    from public.chunks c
    join public.documents d on d.id = c.document_id and d.status = 'ready'
    cross join lateral unnest(c.lexemes) t
    group by 1, 2, 3
  ) p
) r
group by workspace_id, term;
