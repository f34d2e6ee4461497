-- A document's delete ran for 17 minutes on Postgres (issue #21) once autovacuum had analyzed
-- chunk_term_stats. As in 20260101002200_search_peaks.sql, with the removed terms' counts
-- kept by two statements the planner cannot misjudge: the terms that leave are deleted
-- by key first, and the rest updated after.
create or replace function public.track_chunk_stats() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  changed constant text := '(select %1$s.* from old_rows o join new_rows n on n.id = o.id
    where n.lexemes is distinct from o.lexemes or n.workspace_id <> o.workspace_id)';
  removed text := case tg_op when 'DELETE' then 'old_rows' when 'UPDATE' then format(changed, 'o') end;
  added text := case tg_op when 'INSERT' then 'new_rows' when 'UPDATE' then format(changed, 'n') end;
begin
  if removed is not null then
    execute format('
      update public.workspace_chunk_stats s
      set chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len
      from (select workspace_id, count(*) as n, sum(lexeme_count) as len
            from %s r group by workspace_id) g
      where s.workspace_id = g.workspace_id', removed);
    -- Terms none of whose chunks are left go first, then the others' counts drop. Both
    -- join the removed terms to their rows by key alone: a filter on the kept counts
    -- (chunk_freq <= 0 after the update) was estimated at one row, as analyzed statistics
    -- never hold a 0, and the plan rescanned the removed terms once per term gone.
    execute format('
      delete from public.chunk_term_stats s
      using (select r.workspace_id, t.lexeme as term, count(*) as n
             from %s r cross join lateral unnest(r.lexemes) t group by 1, 2) g
      where s.workspace_id = g.workspace_id and s.term = g.term and s.chunk_freq <= g.n',
      removed);
    execute format('
      update public.chunk_term_stats s set chunk_freq = s.chunk_freq - g.n
      from (select r.workspace_id, t.lexeme as term, count(*) as n
            from %s r cross join lateral unnest(r.lexemes) t group by 1, 2) g
      where s.workspace_id = g.workspace_id and s.term = g.term', removed);
  end if;
  if added is not null then
    execute format('
      insert into public.workspace_chunk_stats as s (workspace_id, chunk_count, total_length)
      select workspace_id, count(*), sum(lexeme_count) from %s r
      group by workspace_id order by workspace_id
      on conflict (workspace_id) do update
      set chunk_count = s.chunk_count + excluded.chunk_count,
          total_length = s.total_length + excluded.total_length', added);
    -- New peaks in one pass over the added chunks' pairs and the peaks already kept. The
    -- upsert above holds the workspace's row until commit, so concurrent inserts into one
    -- workspace get here one at a time, each statement reading the peaks the last one kept.
    execute format('
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
  return null;
end $$;
