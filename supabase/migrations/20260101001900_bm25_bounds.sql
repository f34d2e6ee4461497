-- Tighter MaxScore bounds (issue #6). A term's bound was idf * (k1 + 1), what it would add at
-- an infinite term frequency; typical chunks get 1 to 1.5 times idf from it, so the rounds of
-- search_chunks rarely pruned. A term's score grows with its frequency in the chunk and falls
-- with the chunk's length, so the largest it can give any chunk is the score at its highest
-- frequency in the workspace (chunk_term_stats.max_tf) in the shortest chunk
-- (workspace_chunk_stats.min_length). max_tf is a running maximum: raised as chunks come,
-- never lowered when they go (that would mean reading every chunk holding the term), so it
-- stays a safe bound and the top stays exact. min_length is kept exact: when the shortest
-- chunk goes, the next is one index lookup away.

alter table public.chunk_term_stats add column max_tf int;
-- Only chunks with lexemes count: any chunk holding a term is at least one token long.
alter table public.workspace_chunk_stats add column min_length int;

update public.chunk_term_stats s set max_tf = g.max_tf
from (select c.workspace_id, t.lexeme as term, max(cardinality(t.positions)) as max_tf
      from public.chunks c cross join lateral unnest(c.lexemes) t group by 1, 2) g
where s.workspace_id = g.workspace_id and s.term = g.term;

update public.workspace_chunk_stats s set min_length = g.min_length
from (select workspace_id, min(lexeme_count) as min_length from public.chunks
      where lexeme_count > 0 group by 1) g
where s.workspace_id = g.workspace_id;

alter table public.chunk_term_stats alter column max_tf set not null;

-- Serves what the workspace index served, and finds a workspace's shortest chunk.
create index chunks_workspace_length_idx on public.chunks (workspace_id, lexeme_count);
drop index public.chunks_workspace_id_idx;

-- As in 20260101001100_bm25.sql, and the added chunks also raise max_tf and lower min_length
-- (least and greatest skip nulls); when the removed ones held the shortest, it is looked up
-- again.
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
      set chunk_count = s.chunk_count - g.n, total_length = s.total_length - g.len,
        min_length = case when g.shortest <= s.min_length then (
          select min(c.lexeme_count) from public.chunks c
          where c.workspace_id = s.workspace_id and c.lexeme_count > 0) else s.min_length end
      from (select workspace_id, count(*) as n, sum(lexeme_count) as len,
              min(lexeme_count) filter (where lexeme_count > 0) as shortest
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
      insert into public.workspace_chunk_stats as s
        (workspace_id, chunk_count, total_length, min_length)
      select workspace_id, count(*), sum(lexeme_count),
        min(lexeme_count) filter (where lexeme_count > 0) from %s r
      group by workspace_id order by workspace_id
      on conflict (workspace_id) do update
      set chunk_count = s.chunk_count + excluded.chunk_count,
          total_length = s.total_length + excluded.total_length,
          min_length = least(s.min_length, excluded.min_length)', added);
    execute format('
      insert into public.chunk_term_stats as s (workspace_id, term, chunk_freq, max_tf)
      select r.workspace_id, t.lexeme, count(*), max(cardinality(t.positions))
      from %s r cross join lateral unnest(r.lexemes) t
      group by 1, 2 order by 1, 2
      on conflict (workspace_id, term) do update
      set chunk_freq = s.chunk_freq + excluded.chunk_freq,
          max_tf = greatest(s.max_tf, excluded.max_tf)', added);
  end if;
  return null;
end $$;

-- search_chunks as in 20260101001500_search_maxscore_filters.sql but for the bounds.
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
  shortest int;
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
  select s.chunk_count, s.total_length::float8 / s.chunk_count, s.min_length
  into n, avglen, shortest
  from public.workspace_chunk_stats s
  where s.workspace_id = ws and s.chunk_count > 0;
  -- Each term's bound, the most it adds to any chunk's score (its highest frequency in the
  -- shortest chunk): the rounds below skip any chunk whose terms could not add up to the
  -- pool's last score.
  select array_agg(t.term order by t.chunk_freq, t.term),
    array_agg(t.idf order by t.chunk_freq, t.term),
    array_agg(t.idf * t.max_tf * (k1 + 1)
              / (t.max_tf + k1 * (1 - b + b * shortest / avglen))
              order by t.chunk_freq, t.term)
  into known, idfs, bounds
  from (
    select ts.term, ts.chunk_freq, ts.max_tf,
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
