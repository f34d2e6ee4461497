-- Faster exact BM25 at scale: tighter per-term bounds, and lexemes kept in the row.
--
-- search_chunks skips every chunk whose terms could not add up to the pool's last score,
-- each term adding at most its bound (see 20260101001500_search_maxscore_filters.sql). The
-- bound was the score at the term's highest frequency (max_tf) in the workspace's shortest
-- chunk (min_length): a pairing no chunk need have, so bounds ran near idf * (k1 + 1) and
-- the rounds scored thousands of chunks. A term's score rises with its frequency and falls
-- with the chunk's length, so the highest it gives any chunk is reached at one of its
-- peaks: the (frequency, length) pairs of its chunks that no other of its chunks beats on
-- both counts (more often, and no longer). There are few (one per distinct frequency at
-- most), and the largest score over them is exact for any k1, b and average length.
-- Like max_tf, peaks are added as chunks come and not taken away when they go (that would
-- mean reading every chunk holding the term), so they stay a safe bound, only looser.

alter table public.chunk_term_stats add column peaks int[];

-- A term's peaks: for each frequency its shortest chunk, kept when every more frequent one
-- is longer. The trigger below does the same over the added chunks and the peaks kept.
update public.chunk_term_stats s set peaks = f.peaks
from (
  select workspace_id, term, array_agg(array[tf, len] order by tf) as peaks
  from (
    select p.*, min(len) over (partition by workspace_id, term order by tf desc
                               rows between unbounded preceding and 1 preceding) as beaten_at
    from (
      select c.workspace_id, t.lexeme as term, cardinality(t.positions) as tf,
        min(c.lexeme_count) as len
      from public.chunks c cross join lateral unnest(c.lexemes) t group by 1, 2, 3
    ) p
  ) r
  where beaten_at is null or len < beaten_at
  group by 1, 2
) f
where s.workspace_id = f.workspace_id and s.term = f.term;

alter table public.chunk_term_stats alter column peaks set not null;
alter table public.chunk_term_stats drop column max_tf;
alter table public.workspace_chunk_stats drop column min_length;

-- Scoring reads every candidate's lexemes. Left to the default, they went to the TOAST
-- table with the content (a row runs past 2 kB), so each candidate cost a second lookup:
-- a quarter of search's time at 100,000 chunks. Stored in the row (compressed if need
-- be), they leave the content to go out of line alone. Rows already stored keep their
-- place until rewritten.
alter table public.chunks alter column lexemes set storage main;

-- New index entries go straight into the GIN index rather than a pending list that every
-- search reads through until it is merged (at 4 MB, or by autovacuum, which PGlite lacks).
alter index public.chunks_lexemes_idx set (fastupdate = off);
select gin_clean_pending_list('public.chunks_lexemes_idx'::regclass);

-- As in 20260101001500_search_maxscore_filters.sql, with peaks in place of max_tf and
-- min_length.
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
    execute format('
      update public.chunk_term_stats s set chunk_freq = s.chunk_freq - g.n
      from (select r.workspace_id, t.lexeme as term, count(*) as n
            from %s r cross join lateral unnest(r.lexemes) t group by 1, 2) g
      where s.workspace_id = g.workspace_id and s.term = g.term', removed);
    execute format('
      delete from public.chunk_term_stats s
      using (select distinct r.workspace_id, t.lexeme as term
             from %s r cross join lateral unnest(r.lexemes) t) g
      where s.workspace_id = g.workspace_id and s.term = g.term and s.chunk_freq <= 0', removed);
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

-- As in 20260101001500_search_maxscore_filters.sql, with the bounds from the peaks, and
-- generic plans: each round's statements (and bm25_top's) were planned afresh for every
-- new tsquery, a quarter of a search's time in a small workspace and 9% at 100,000 chunks.
-- The generic plans find chunks through the GIN index whatever the query.
create or replace function public.search_chunks(
  workspace_id uuid,
  query text,
  match_count int default 10,
  document_ids uuid[] default null,
  k1 real default 1.2,
  b real default 0.6,
  query_embedding extensions.vector default null,
  lexical_weight real default 1,
  semantic_weight real default 1,
  rrf_k int default 60,
  snippets boolean default true,
  -- Document kinds to keep (see document_kind): pdf, docx, html, md, txt, csv.
  types text[] default null
)
returns table (
  chunk_id uuid,
  document_id uuid,
  title text,
  ordinal int,
  page_start int,
  page_end int,
  score double precision,
  bm25 double precision,
  lexical_rank int,
  semantic_rank int,
  similarity double precision,
  snippet text
)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  ws constant uuid := search_chunks.workspace_id;
  -- Fusion looks deeper than the page it returns.
  pool constant int := case when query_embedding is null then match_count
                            else greatest(match_count * 4, 100) end;
  -- The query's distinct lexemes, normalised as the chunks' are.
  terms constant text[] :=
    array(select t.lexeme from unnest(public.bm25_lexemes(coalesce(query, ''))) t);
  tsq constant tsquery := public.any_lexeme(terms);
  hidden uuid[];
  n float8;
  avglen float8;
  -- The known terms, rarest first, with their idfs.
  known text[];
  idfs float8[];
  bounds float8[];
  theta float8;
  round_query tsquery;
  enough tsquery;
  top_ids uuid[] := '{}';
  top_scores float8[] := '{}';
  sem_ids uuid[];
  sem_sims float8[];
begin
  if match_count is null or match_count not between 1 and 1000 then
    raise exception 'match_count must be between 1 and 1000' using errcode = '22023';
  end if;
  if k1 is null or k1 < 0 or b is null or b not between 0 and 1 then
    raise exception 'k1 must be >= 0 and b between 0 and 1' using errcode = '22023';
  end if;
  if rrf_k is null or rrf_k < 1 then
    raise exception 'rrf_k must be >= 1' using errcode = '22023';
  end if;
  -- What RLS would have decided: members see the workspace's chunks, nobody else any.
  if not (public.has_role(ws, 'viewer') or (select auth.role()) = 'service_role') then
    return;
  end if;

  select array_agg(d.id) into hidden
  from public.documents d
  where d.workspace_id = ws and d.status <> 'ready';
  select s.chunk_count, s.total_length::float8 / s.chunk_count
  into n, avglen
  from public.workspace_chunk_stats s
  where s.workspace_id = ws and s.chunk_count > 0;
  -- Each term's bound, the most it adds to any chunk's score (the best of its peaks): the
  -- rounds below skip any chunk whose terms could not add up to the pool's last score.
  select array_agg(t.term order by t.chunk_freq, t.term),
    array_agg(t.idf order by t.chunk_freq, t.term),
    array_agg(t.idf * (
      select max(t.peaks[i][1] * (k1 + 1)
                 / (t.peaks[i][1] + k1 * (1 - b + b * t.peaks[i][2] / avglen)))
      from generate_subscripts(t.peaks, 1) i
    ) order by t.chunk_freq, t.term)
  into known, idfs, bounds
  from (
    select ts.term, ts.chunk_freq, ts.peaks,
      ln(1 + (n - ts.chunk_freq + 0.5) / (ts.chunk_freq + 0.5)) as idf
    from public.chunk_term_stats ts
    where ts.workspace_id = ws and ts.term = any (terms)
  ) t;

  -- A first pool from the chunks holding two of the three rarest terms: few, cheap to find,
  -- and they tend to score high, so the rounds below start with a high bar.
  if cardinality(known) >= 2 then
    select coalesce(array_agg(r.id order by r.bm25 desc, r.id), '{}'),
      coalesce(array_agg(r.bm25 order by r.bm25 desc, r.id), '{}')
    into top_ids, top_scores
    from public.bm25_top(
      ws,
      case when cardinality(known) = 2 then public.all_lexemes(known)
           else public.all_lexemes(known[1:2]) || public.all_lexemes(array[known[1], known[3]])
                || public.all_lexemes(known[2:3]) end,
      known, idfs, avglen, k1, b, document_ids, hidden, types, pool) r;
  end if;
  for i in 1 .. coalesce(cardinality(known), 0) loop
    theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
    -- The terms left could not reach the pool even together: no unscored chunk can.
    exit when theta > (select sum(x) from unnest(bounds[i:]) x);
    -- This round: chunks with term i and enough of the commoner ones to reach the pool; the
    -- GIN index finds them, no other row is read.
    round_query := public.any_lexeme(known[i:i]);
    enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i]);
    if enough is not null then
      round_query := round_query && enough;
    end if;
    -- Chunks holding one of the two rarest terms (scored in rounds 1 and 2; short lists) are
    -- skipped. Those holding another rarer term cost more to rule out in the index than to
    -- score again, and the union drops the repeats (same chunk, same score).
    if i > 1 then
      round_query := round_query && !! public.any_lexeme(known[1:least(i - 1, 2)]);
    end if;
    select coalesce(array_agg(m.id order by m.bm25 desc, m.id), '{}'),
      coalesce(array_agg(m.bm25 order by m.bm25 desc, m.id), '{}')
    into top_ids, top_scores
    from (
      select p.id, p.bm25 from unnest(top_ids, top_scores) p (id, bm25)
      union
      select r.id, r.bm25
      from public.bm25_top(ws, round_query, known, idfs, avglen, k1, b, document_ids, hidden,
                           types, pool) r
      order by 2 desc, 1
      limit pool
    ) m;
  end loop;

  if query_embedding is not null then
    select array_agg(v.id order by v.similarity desc, v.id),
      array_agg(v.similarity order by v.similarity desc, v.id)
    into sem_ids, sem_sims
    from public.vector_top(ws, query_embedding, document_ids, hidden, types, pool) v;
  end if;

  return query
  with lexical as (
    select l.id, l.bm25, l.rank::int as rank
    from unnest(top_ids, top_scores) with ordinality as l (id, bm25, rank)
  ),
  semantic as (
    select s.id, s.similarity, s.rank::int as rank
    from unnest(sem_ids, sem_sims) with ordinality as s (id, similarity, rank)
  ),
  fused as (
    select coalesce(l.id, s.id) as id, l.bm25, l.rank as lexical_rank, s.rank as semantic_rank,
      s.similarity,
      case when query_embedding is null then l.bm25
           else coalesce(lexical_weight / (rrf_k + l.rank), 0)
              + coalesce(semantic_weight / (rrf_k + s.rank), 0) end as score
    from lexical l full join semantic s on s.id = l.id
  ),
  page as (
    select f.*, c.document_id, c.ordinal, c.page_start, c.page_end, c.content
    from fused f
    join public.chunks c on c.id = f.id
    order by f.score desc, f.id
    limit match_count
  )
  select p.id, p.document_id, d.title, p.ordinal, p.page_start, p.page_end, p.score, p.bm25,
    p.lexical_rank, p.semantic_rank, p.similarity,
    case when snippets then public.search_snippet(p.content, terms, tsq) end
  from page p
  join public.documents d on d.id = p.document_id
  order by p.score desc, p.id;
end $$;

-- As in 20260101001500_search_maxscore_filters.sql, with the content lowercased once rather
-- than once per query term (the subquery keeps the planner from inlining it back into each
-- use): that cost more than ts_headline itself, 3 ms of each search's 10 snippets.
create or replace function public.search_snippet(content text, terms text[], tsq tsquery)
returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case when w.start > 1 then '… ' else '' end
    || ts_headline('public.sourcebook'::regconfig,
         replace(replace(replace(
           -- Whole words only: cut at the spaces inside the window.
           regexp_replace(regexp_replace(substr(content, w.start, 420),
             case when w.start > 1 then '^\S*\s+' else '^' end, ''),
             case when length(content) > w.start + 420 then '\s+\S*$' else '$' end, ''),
           '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
         coalesce(tsq, ''::tsquery),
         'StartSel=<mark>, StopSel=</mark>, MaxWords=35, MinWords=15')
    || case when length(content) > w.start + 420 then ' …' else '' end
  from (
    select greatest(coalesce(min(nullif(strpos(l.text, t), 0)), 1) - 100, 1) as start
    from (select lower(content) as text offset 0) l, unnest(terms) t
  ) w
$$;
