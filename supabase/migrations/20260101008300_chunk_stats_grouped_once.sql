-- The term statistics' merge of added chunks in one pass less (issues #16 and #17): the
-- (term, occurrences-in-a-chunk) pairs are grouped once, with their chunk counts and shortest
-- lengths, and the per-term counts summed from those groups, where the statement of
-- 20260101005700_chunk_stats_per_document.sql kept every (chunk, term) row and grouped all of
-- them twice (the counts, then the peaks with the stored ones). Same results; counting 200
-- chunks of a filing (count_document_stats) groups their ~22,000 (chunk, term) rows once and
-- then ~8,000 groups, instead of the ~22,000 rows twice. The removing statements are as before.

create or replace function public.chunk_stats_statements(removed text, added text) returns text[]
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
          min(r.lexeme_count) as len, count(*) as n
        from %s r cross join lateral unnest(r.lexemes) t
        group by 1, 2, 3
      ),
      counts as (select workspace_id, term, sum(n)::bigint as n from added group by 1, 2),
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
