-- Cheaper rounds for search_chunks: the same top, exactly, with less work in the GIN index.
--
-- Each round asks the index for the chunks holding its term and enough of the commoner
-- ones (bm25_enough). At 100,000 chunks the slowest searches spent most of their time
-- there, for two reasons, each about half of a late round's cost:
-- - "Enough" was a flat OR of the ways there, each way naming all its terms: sixteen ways
--   of seven terms for the index to test on every chunk holding the round's term. Ways
--   share their first terms, so written as a tree (a & (b & (c | d) | c & d)) the same
--   condition names each shared prefix once and fails at its first missing term.
-- - Chunks holding the two rarest terms were ruled out in the tsquery (& !(t1 | t2)). The
--   index cannot use a NOT to skip anything: it read those terms' chunks as candidates
--   too, testing each against every other term. Ruled out on the row instead, as each
--   matching chunk is read, they cost next to nothing, so every rarer term is ruled out
--   now, not two: a chunk holding a rarer term was settled in that term's round, scored
--   there if it could reach the pool's last score then, and that score only rises.
-- Each query run alternately both ways on one 100,000-chunk bench:search database: -20% at
-- p95, -12% in total, the same 300 top-10s.

-- As in 20260101001500_search_maxscore_filters.sql (the same condition, the same limits),
-- written as a tree: the depth-first search over the ways opens a group for each term it
-- takes ("a & (") and closes it when it backs out, so the ways that share their first
-- terms name them once (a & (b & (c | d) | c & d)). Every group it opens holds a way: it
-- only takes a term when the terms from there on reach the need together.
create or replace function public.bm25_enough(terms text[], bounds float8[], need float8)
returns tsquery
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  cap constant int := 16;
  n int := coalesce(cardinality(terms), 0);
  quoted text[] := array(
    select '''' || replace(replace(t, '\', '\\'), '''', '''''') || '''' from unnest(terms) t);
  rest float8[];
  chosen int[];
  -- started[d]: the group open at depth d (1: the outermost) has an alternative already.
  started boolean[];
  expr text;
  ways int;
  total float8;
  i int;
begin
  -- Past eight terms the ways multiply: the commonest beyond them count as present.
  while n > 8 loop
    need := need - bounds[n];
    n := n - 1;
  end loop;
  loop
    if need <= 0 then
      return null;
    end if;
    -- rest[j]: what the terms from j on add together.
    rest := array_fill(0::float8, array[n + 1]);
    for j in reverse n .. 1 loop
      rest[j] := rest[j + 1] + bounds[j];
    end loop;
    if n = 0 or rest[1] < need then
      return '!nothing & nothing'::tsquery;
    end if;
    chosen := '{}'; started := '{false}'; expr := ''; ways := 0; total := 0; i := 1;
    loop
      if i <= n and total + rest[i] >= need then
        if started[cardinality(chosen) + 1] then
          expr := expr || ' | ';
        end if;
        started[cardinality(chosen) + 1] := true;
        if total + bounds[i] >= need then
          expr := expr || quoted[i];
          ways := ways + 1;
          exit when ways > cap;
        else
          expr := expr || quoted[i] || ' & (';
          chosen := chosen || i;
          started[cardinality(chosen) + 1] := false;
          total := total + bounds[i];
        end if;
        i := i + 1;
      else
        exit when cardinality(chosen) = 0;
        expr := expr || ')';
        i := chosen[cardinality(chosen)];
        total := total - bounds[i];
        chosen := chosen[:cardinality(chosen) - 1];
        i := i + 1;
      end if;
    end loop;
    if ways <= cap then
      return expr::tsquery;
    end if;
    -- Too many: leave the commonest term out, counted as present.
    need := need - bounds[n];
    n := n - 1;
  end loop;
end $$;

-- As in 20260101001500_search_maxscore_filters.sql, and chunks matching `skip` are passed
-- over as they are read, before they are scored.
drop function public.bm25_top(uuid, tsquery, text[], float8[], float8, real, real, uuid[],
                              uuid[], text[], int);

create function public.bm25_top(
  workspace_id uuid, tsq tsquery, terms text[], idfs float8[], avglen float8, k1 real,
  b real, document_ids uuid[], hidden_ids uuid[], types text[], lim int, skip tsquery
)
returns table (id uuid, bm25 float8)
language sql stable
set search_path = ''
as $$
  select c.id, (
    select sum(idfs[array_position(terms, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
               / (cardinality(t.positions) + k1 * (1 - b + b * c.lexeme_count / avglen)))
    -- Only the query's lexemes, with their positions: weight them A, keep the A's.
    from unnest(ts_filter(setweight(c.lexemes, 'A', terms), '{a}')) t
  ) as bm25
  from public.chunks c
  where c.workspace_id = bm25_top.workspace_id and c.lexemes @@ tsq
    -- A NOT the index cannot use (see the header): tested on the row.
    and (skip is null or not c.lexemes @@ skip)
    and (bm25_top.document_ids is null or c.document_id = any (bm25_top.document_ids))
    and (hidden_ids is null or c.document_id <> all (hidden_ids))
    and (types is null or exists (
      select from public.documents d
      where d.id = c.document_id and public.document_kind(d.mime_type) = any (types)))
  order by 2 desc, c.id
  limit lim
$$;

revoke execute on function public.bm25_top(
  uuid, tsquery, text[], float8[], float8, real, real, uuid[], uuid[], text[], int, tsquery
) from public, anon, authenticated;

-- As in 20260101002200_search_peaks.sql, with the rarer terms ruled out on the row, and a
-- first pool from the chunks holding all three rarest terms when they fill it: fewer to
-- score than those holding two of them (-8% at p50, -7% in total, the same way as above).
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
  first_query tsquery;
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

  -- A first pool from the chunks holding the three rarest terms, or when fewer than a pool
  -- do, two of them: few, cheap to find, and they tend to score high, so the rounds below
  -- start with a high bar.
  foreach first_query in array array[
    case when cardinality(known) >= 3 then public.all_lexemes(known[:3]) end,
    case when cardinality(known) >= 3
           then public.all_lexemes(known[1:2]) || public.all_lexemes(array[known[1], known[3]])
                || public.all_lexemes(known[2:3])
         when cardinality(known) = 2 then public.all_lexemes(known) end
  ] loop
    continue when first_query is null;
    select coalesce(array_agg(r.id order by r.bm25 desc, r.id), '{}'),
      coalesce(array_agg(r.bm25 order by r.bm25 desc, r.id), '{}')
    into top_ids, top_scores
    from public.bm25_top(ws, first_query, known, idfs, avglen, k1, b, document_ids, hidden,
                         types, pool, null) r;
    exit when cardinality(top_ids) = pool;
  end loop;
  for i in 1 .. coalesce(cardinality(known), 0) loop
    theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
    -- The terms left could not reach the pool even together: no unscored chunk can.
    exit when theta > (select sum(x) from unnest(bounds[i:]) x);
    -- This round: chunks with term i and enough of the commoner ones to reach the pool; the
    -- GIN index finds them. Those holding a rarer term were settled in its round: they are
    -- skipped as they are read, before scoring (see the header).
    round_query := public.any_lexeme(known[i:i]);
    enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i]);
    if enough is not null then
      round_query := round_query && enough;
    end if;
    select coalesce(array_agg(m.id order by m.bm25 desc, m.id), '{}'),
      coalesce(array_agg(m.bm25 order by m.bm25 desc, m.id), '{}')
    into top_ids, top_scores
    from (
      select p.id, p.bm25 from unnest(top_ids, top_scores) p (id, bm25)
      union
      select r.id, r.bm25
      from public.bm25_top(ws, round_query, known, idfs, avglen, k1, b, document_ids, hidden,
                           types, pool, case when i > 1 then public.any_lexeme(known[:i - 1]) end) r
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
