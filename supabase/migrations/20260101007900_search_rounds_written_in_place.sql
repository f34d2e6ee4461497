-- search_chunks's lexical rounds cost less each (issue #16): the same results, exactly, with
-- less of the database worker's CPU per search. Redefines search_chunks (from
-- 20260101007100_search_rounds_checked_on_the_row.sql) and drops bm25_top and
-- bm25_boosted_top, whose queries it now runs itself.
--
-- A round found or scored little in a short query's search (bench/search-profile.ts --corpus
-- short), yet cost about 0.3 ms: most of that was its statements, not its chunks. Measured one
-- at a time in a loop of 300 on the 12 financebench filings bench:load-kinds imports (CPU time,
-- under search_chunks's force_generic_plan, a round that finds no chunk; a machine at load 6-8):
--   the round's statement, bm25_top called inside it    ~330 us
--   bm25_top called alone                               ~150-180 us
--   bm25_top's query written in the loop                ~50 us
--   any_lexeme of one term                              ~40 us  (a SQL function: not inlined)
--   `exit when theta > (select sum(x) from unnest(bounds[i:]) x)`  ~40 us (a query)
-- So now:
-- - Each round runs bm25_top's (or bm25_boosted_top's) query in its own statement, as a
--   subquery of the pool's merge, instead of calling a PL/pgSQL function that ran it: no
--   function call, no `set search_path` to change and restore, no result materialised
--   between them. The same query, expression for expression, so the same scores to the bit;
--   its plan is search_chunks's, cached as before (generic, the GIN index finding the chunks).
-- - What every round asked again is made once: the sums of the bounds from each term on
--   (`rest`, summed in the same order, so the same floats) and each term's tsquery
--   (`singles`); the rarer terms' OR grows by one term a round instead of being made anew.
-- - A boosted round's need (the least over the five documents) is a loop of simple
--   expressions, not a query.
-- - A round's check on the row with the larger budget (`checked`) is not made when at most 5
--   commoner terms are left: the index's condition is exact then, so the check could pass over
--   nothing more (see the comment in the rounds).
--
-- search_chunks before and after (bench/search-compare.ts --deep 200, each query alternately
-- both ways on one database, CPU time; ids, scores to 9 decimals and snippets at 10, 20 and 200
-- results, whole workspace and filtered to one document; the before is 7100's search_chunks
-- calling 5800's bm25_top and bm25_boosted_top, with 7600's search_snippet; a machine shared
-- with other benchmarks, load 5-12 on 2 cores):
--   the 12 filings, the 87 short queries (--short): 522 compared, none different; total 0.69
--   and 0.77, p50 0.98 and 1.02, p95 0.72 and 0.90 (without --deep while building: total
--   0.86, 0.89, 0.89, 0.85)
--   bench:search's SciFact corpus at 100,000 chunks, 40 claims: 240 compared, none different;
--   p50 0.86, p95 1.12, total 0.78
--   bench:search's library corpus at 100,000 chunks, the 25 development questions: 150
--   compared, none different; p50 0.85, p95 0.89, total 0.89
--   eval:retrieval's SciFact workspace (beir), 100 claims: 600 compared, none different; p50
--   0.98, p95 0.99, total 0.90
-- The rounds score the same chunks (bench:search-candidates, which counts all but the boosted
-- documents' rounds, on the 12 filings, 25 questions: 1,371 before and after): what is saved
-- is each round's own cost, not its chunks', so the short queries, whose rounds score few
-- chunks, gained most. eval:retrieval on SciFact: nDCG@10 0.6960, R@100 0.9387, as before.
-- bench:load-kinds (--files 12 --requests 200 --kinds search, before and after in turn, four
-- each) could not show it on this machine: database worker CPU per search 14.4, 23.7, 15.6,
-- 18.5 ms before and 20.7, 12.8, 24.1, 28.2 ms after, while the main thread's CPU per search,
-- which this does not touch, moved as much (5.4, 8.2, 4.8, 8.0 and 8.2, 4.0, 11.0, 14.1 ms)
-- with the machine's load (1-minute load 8-12).
--
-- Tried and dropped (bench/search-compare.ts --short on the 12 filings, CPU total after/before,
-- run in turn with this migration's version): a first pool for the boosted documents, as the
-- other rounds have one (dropped last session as no cheaper; with cheaper rounds still not:
-- 0.94 and 0.96 against 0.89 and 0.85 without it); the final statement reading each passage
-- and document once instead of three joins (1.02 and 0.83 against 0.95 and 0.90: not shown to
-- pay). The rounds' changes but the queries still in bm25_top and bm25_boosted_top: 1.02 and
-- 1.00 against 0.86 and 0.89 for all of them: writing the queries in place is the saving.
--
-- As in 20260101007100_search_rounds_checked_on_the_row.sql, its rounds' statements cheaper.
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
  -- Document kinds to keep (see document_kind): pdf, docx, pptx, xlsx, html, md, txt, csv.
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
  snippet text,
  document_type text
)
language plpgsql stable security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
#variable_conflict use_column
declare
  ws constant uuid := search_chunks.workspace_id;
  -- Fusion, and the query's pairs, look deeper than the page they return.
  pool constant int := case when query_embedding is null then greatest(match_count, 30)
                            else greatest(match_count * 4, 100) end;
  -- How many of the best-matching documents lend their score to their passages.
  doc_boost constant int := 5;
  -- The query's lexemes, normalised as the chunks' are, with their positions.
  lexemes constant tsvector := public.bm25_lexemes(coalesce(query, ''));
  -- Its distinct lexemes.
  terms constant text[] := array(select t.lexeme from unnest(lexemes) t);
  tsq constant tsquery := public.any_lexeme(terms);
  -- The years the query names (FY2018 and 2018 alike: its parts hold 2018).
  years constant text[] := array(select t from unnest(terms) t where t ~ '^(19|20)[0-9]{2}$');
  hidden uuid[];
  -- The lexical rounds pass over the hidden documents and the boosted ones (scored already).
  passed uuid[];
  boosted_ids uuid[] := '{}';
  boosted_scores float8[] := '{}';
  boosted_favour float8[] := '{}';
  n float8;
  avglen float8;
  -- The known terms, rarest first, with their weights (idf x the square root of the term's
  -- count in the query).
  known text[];
  idfs float8[];
  bounds float8[];
  -- rest[i]: what the terms from i on add together at most (bounds[i:] summed in order).
  rest float8[];
  -- Each known term as a tsquery, and the rarer terms' OR built up round by round.
  singles tsquery[];
  rarer tsquery;
  theta float8;
  -- The least BM25 a boosted document's chunk needs to enter the pool.
  need float8;
  first_query tsquery;
  -- What the first pool scored (its queries that ran): the rounds pass over it.
  first_done tsquery;
  -- What a round passes over.
  skip tsquery;
  round_query tsquery;
  enough tsquery;
  checked tsquery;
  top_ids uuid[] := '{}';
  top_scores float8[] := '{}';
  sem_ids uuid[];
  sem_sims float8[];
  -- The query's pairs of terms (each as a phrase at the query's distance), with their weights.
  pairs tsquery[];
  pair_weights float8[];
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
      ln(1 + (n - ts.chunk_freq + 0.5) / (ts.chunk_freq + 0.5))
        * sqrt(cardinality(q.positions)) as idf
    from public.chunk_term_stats ts
    join unnest(lexemes) q on q.lexeme = ts.term
    where ts.workspace_id = ws
  ) t;
  -- Made once for every round below (each was a query of its own in every round).
  select array_agg((select sum(x) from unnest(bounds[i:]) x) order by i),
    array_agg(public.any_lexeme(known[i:i]) order by i)
  into rest, singles
  from generate_subscripts(known, 1) i;

  -- The documents' scores: BM25 of the query over the ready documents' contexts, each term's
  -- idf from how many of them hold it. A term every document holds adds nothing.
  with docs as (
    select d.id, length(x.context)::float8 as len, x.context,
      -- A document of a year the query names is favoured, not the only one found. And the
      -- score stands for what a passage does not say of its document: nothing is left unsaid
      -- in a document of one passage (an abstract, a note), most in a long report.
      case when d.periods && years then 1.25 else 1 end as favour,
      1 - 1 / greatest(d.chunk_count, 1)::float8 as share
    from public.document_texts x
    join public.documents d on d.id = x.document_id
    where x.workspace_id = ws and x.context is not null and d.status = 'ready'
      and (search_chunks.document_ids is null or d.id = any (search_chunks.document_ids))
      and (types is null or public.document_kind(d.mime_type) = any (types))
  ),
  stats as (
    select count(*)::float8 as total, greatest(avg(len), 1) as avglen from docs
  ),
  matched as (
    select d.id, d.len, d.favour, d.share, t.lexeme, cardinality(t.positions) as tf
    from docs d, unnest(ts_filter(setweight(d.context, 'A', terms), '{a}')) t
    where d.context @@ tsq
  ),
  df as (
    select m.lexeme, ln(1 + (s.total - count(*) + 0.5) / (count(*) + 0.5)) as idf
    from matched m, stats s
    group by m.lexeme, s.total
  ),
  scored as (
    -- Summed term by term in the terms' order, whatever order the join gives the rows (ties).
    select m.id, m.favour,
      m.share * sum(df.idf * m.tf * (k1 + 1) / (m.tf + k1 * (1 - b + b * m.len / s.avglen))
                    order by m.lexeme) as s
    from matched m join df using (lexeme), stats s
    group by m.id, m.favour, m.share
  ),
  -- A document is boosted when at most doc_boost score at least as much: documents tied
  -- across the last place are all left out rather than chosen by id (ties).
  best as (
    select r.id, r.favour, r.s
    from (
      select sc.*, count(*) over (order by sc.favour * sc.s desc) as reach
      from scored sc where sc.s > 0
    ) r
    where r.reach <= doc_boost
  )
  select coalesce(array_agg(bs.id order by bs.favour * bs.s desc, bs.id), '{}'),
    coalesce(array_agg(bs.s order by bs.favour * bs.s desc, bs.id), '{}'),
    coalesce(array_agg(bs.favour order by bs.favour * bs.s desc, bs.id), '{}')
  into boosted_ids, boosted_scores, boosted_favour
  from best bs;

  -- The boosted documents' top, found as the rounds below find the others': a chunk of
  -- document d enters the pool at favour_d * (s_d + bm25) >= the pool's last score, so it
  -- needs bm25 >= last / favour_d - s_d, at least `need` (the least of those) in every
  -- document. Each round asks the GIN index for the boosted chunks holding term i and enough
  -- of the commoner terms to reach `need`, and scores only those.
  if cardinality(boosted_ids) > 0 and cardinality(known) > 0 then
    rarer := null;
    for i in 1 .. cardinality(known) loop
      theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
      need := null;
      for k in 1 .. cardinality(boosted_ids) loop
        need := least(need, theta / boosted_favour[k] - boosted_scores[k]);
      end loop;
      exit when need > rest[i];
      round_query := singles[i];
      enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], need - bounds[i]);
      if enough is not null then
        round_query := round_query && enough;
      end if;
      -- bm25_boosted_top's query (20260101005800_search_rounds_planned_once.sql), written here:
      -- calling it cost more than its query when the round finds little (see the header).
      select coalesce(array_agg(m.id order by m.score desc, m.id), '{}'),
        coalesce(array_agg(m.score order by m.score desc, m.id), '{}')
      into top_ids, top_scores
      from (
        select p.id, p.score from unnest(top_ids, top_scores) p (id, score)
        union
        (select x.id, boosted_favour[x.k] * (boosted_scores[x.k] + coalesce((
          select sum(idfs[array_position(known, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
                     / (cardinality(t.positions) + k1 * (1 - b + b * x.lexeme_count / avglen)))
          from unnest(ts_filter(setweight(x.lexemes, 'A', known), '{a}')) t
        ), 0)) as score
        from (
          select c.id, c.lexemes, c.lexeme_count, array_position(boosted_ids, c.document_id) as k
          from public.chunks c
          -- No test of the workspace: the boosted documents are the workspace's, and without
          -- one the planner intersects the GIN index's chunks with the documents' (their
          -- unique index), reading only chunks that are both.
          where c.lexemes @@ round_query and c.document_id = any (boosted_ids)
            and (rarer is null or not c.lexemes @@ rarer)
        ) x
        order by 2 desc, x.id
        limit pool)
        order by 2 desc, 1
        limit pool
      ) m;
      rarer := coalesce(rarer || singles[i], singles[i]);
    end loop;
  end if;
  passed := coalesce(hidden, '{}') || boosted_ids;

  -- A first pool from the chunks holding the three rarest terms, or when fewer than a pool
  -- do, two of them: few, cheap to find, and they tend to score high, so the rounds below
  -- start with a high bar. The boosted documents' chunks are in the pool already.
  if cardinality(top_ids) < pool then
    foreach first_query in array array[
      case when cardinality(known) >= 3 then public.all_lexemes(known[:3]) end,
      case when cardinality(known) >= 3
             then public.all_lexemes(known[1:2]) || public.all_lexemes(array[known[1], known[3]])
                  || public.all_lexemes(known[2:3])
           when cardinality(known) = 2 then public.all_lexemes(known) end
    ] loop
      continue when first_query is null;
      select coalesce(array_agg(m.id order by m.bm25 desc, m.id), '{}'),
        coalesce(array_agg(m.bm25 order by m.bm25 desc, m.id), '{}')
      into top_ids, top_scores
      from (
        select p.id, p.bm25 from unnest(top_ids, top_scores) p (id, bm25)
        union
        -- bm25_top's query (20260101005800_search_rounds_planned_once.sql), written here as
        -- in the rounds.
        (select c.id, (
          select sum(idfs[array_position(known, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
                     / (cardinality(t.positions) + k1 * (1 - b + b * c.lexeme_count / avglen)))
          from unnest(ts_filter(setweight(c.lexemes, 'A', known), '{a}')) t
        ) as bm25
        from public.chunks c
        where c.workspace_id = ws and c.lexemes @@ first_query
          and (search_chunks.document_ids is null
               or c.document_id = any (search_chunks.document_ids))
          and c.document_id <> all (passed)
          and (search_chunks.types is null or exists (
            select from public.documents d
            where d.id = c.document_id
              and public.document_kind(d.mime_type) = any (search_chunks.types)))
        order by 2 desc, c.id
        limit pool)
        order by 2 desc, 1
        limit pool
      ) m;
      first_done := coalesce(first_done || first_query, first_query);
      exit when cardinality(top_ids) = pool;
    end loop;
  end if;
  rarer := null;
  for i in 1 .. coalesce(cardinality(known), 0) loop
    theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
    -- The terms left could not reach the pool even together: no unscored chunk can.
    exit when theta > rest[i];
    -- This round: chunks with term i and enough of the commoner ones to reach the pool; the
    -- GIN index finds them. Those holding a rarer term were settled in its round, and those
    -- the first pool found were scored there: they are passed over as they are read, before
    -- scoring (see 20260101002300_search_tree_rounds.sql). From the fourth round on, every
    -- chunk the first pool found holds a rarer term.
    round_query := singles[i];
    enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i]);
    if enough is not null then
      round_query := round_query && enough;
    end if;
    skip := rarer;
    if i <= 3 and first_done is not null then
      skip := coalesce(skip || first_done, first_done);
    end if;
    -- The same need with a larger budget, tested on each chunk the index finds (see
    -- 20260101007100_search_rounds_checked_on_the_row.sql): no use when the index's condition
    -- left no way out, as with at most 5 commoner terms (at most 10 ways, none left out:
    -- tested in retrieval-filters.test.ts), so it is not made then.
    if cardinality(known) - i > 5 then
      checked := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i], 64, 12);
      if checked is not null and checked is distinct from enough then
        skip := coalesce(skip || !! checked, !! checked);
      end if;
    end if;
    select coalesce(array_agg(m.id order by m.bm25 desc, m.id), '{}'),
      coalesce(array_agg(m.bm25 order by m.bm25 desc, m.id), '{}')
    into top_ids, top_scores
    from (
      select p.id, p.bm25 from unnest(top_ids, top_scores) p (id, bm25)
      union
      (select c.id, (
        select sum(idfs[array_position(known, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
                   / (cardinality(t.positions) + k1 * (1 - b + b * c.lexeme_count / avglen)))
        from unnest(ts_filter(setweight(c.lexemes, 'A', known), '{a}')) t
      ) as bm25
      from public.chunks c
      where c.workspace_id = ws and c.lexemes @@ round_query
        and (skip is null or not c.lexemes @@ skip)
        and (search_chunks.document_ids is null
             or c.document_id = any (search_chunks.document_ids))
        and c.document_id <> all (passed)
        and (search_chunks.types is null or exists (
          select from public.documents d
          where d.id = c.document_id
            and public.document_kind(d.mime_type) = any (search_chunks.types)))
      order by 2 desc, c.id
      limit pool)
      order by 2 desc, 1
      limit pool
    ) m;
    rarer := coalesce(rarer || singles[i], singles[i]);
  end loop;

  -- The query's pairs: each term and the next one within three positions (the query's stop
  -- words count, so "statement of income" pairs at distance 2), each pair once, at its
  -- nearest, weighing what its rarer term does. In the pairs' order, and a position's lexemes
  -- in theirs, so the pairs and their weights' sum are the same whatever the plan (ties).
  select array_agg(tsquery_phrase(public.any_lexeme(array[x.lexeme]),
                                  public.any_lexeme(array[x.nxt]), x.distance)
                   order by x.lexeme, x.nxt),
    array_agg(least(idfs[array_position(known, x.lexeme)], idfs[array_position(known, x.nxt)])
              order by x.lexeme, x.nxt)
  into pairs, pair_weights
  from (
    select y.lexeme, y.nxt, min(y.np - y.p) as distance
    from (
      select l.lexeme, p, lead(l.lexeme) over w as nxt, lead(p) over w as np
      from unnest(lexemes) l, unnest(l.positions) p
      window w as (order by p, l.lexeme)
    ) y
    where y.np - y.p <= 3 and y.nxt <> y.lexeme and y.lexeme = any (known)
      and y.nxt = any (known)
    group by y.lexeme, y.nxt
  ) x;

  if query_embedding is not null then
    select array_agg(v.id order by v.similarity desc, v.id),
      array_agg(v.similarity order by v.similarity desc, v.id)
    into sem_ids, sem_sims
    from public.vector_top(ws, query_embedding, document_ids, hidden, types, pool) v;
  end if;

  return query
  with lexical as (
    select l.id, l.bm25, l.score, (row_number() over (order by l.score desc, l.id))::int as rank
    from (
      -- The pool's BM25, plus the weight of each query pair a passage holds as the query does.
      select x.id, x.bm25, x.bm25 + coalesce((
          select sum(p.w) from unnest(pairs, pair_weights) p (q, w) where c.lexemes @@ p.q
        ), 0) as score
      from unnest(top_ids, top_scores) x (id, bm25)
      join public.chunks c on c.id = x.id
    ) l
  ),
  semantic as (
    select s.id, s.similarity, s.rank::int as rank
    from unnest(sem_ids, sem_sims) with ordinality as s (id, similarity, rank)
  ),
  fused as (
    select coalesce(l.id, s.id) as id, l.bm25, l.rank as lexical_rank, s.rank as semantic_rank,
      s.similarity,
      case when query_embedding is null then l.score
           else coalesce(lexical_weight / (rrf_k + l.rank), 0)
              + coalesce(semantic_weight / (rrf_k + s.rank), 0) end as score
    from lexical l full join semantic s on s.id = l.id
  ),
  -- Pages as a unit: a page's best passage comes before the second of any page, so five
  -- passages of one page do not push other pages out of the first results. A document
  -- without pages (one page: Markdown, text) is not one unit: each passage is its own.
  placed as (
    select f.*, c.document_id, c.ordinal, c.page_start, c.page_end, c.content,
      row_number() over (
        partition by c.document_id,
          case when d.page_count > 1 then c.page_start else -1 - c.ordinal end
        order by f.score desc, f.id) > 1 as repeated
    from fused f
    join public.chunks c on c.id = f.id
    join public.documents d on d.id = c.document_id
  ),
  page as (
    select p.*, row_number() over (order by p.repeated, p.score desc, p.id) as place
    from placed p
    order by place
    limit match_count
  )
  select p.id, p.document_id, d.title, p.ordinal, p.page_start, p.page_end, p.score, p.bm25,
    p.lexical_rank, p.semantic_rank, p.similarity,
    case when snippets then public.search_snippet(p.content, terms, tsq) end,
    public.document_type(d.mime_type, d.storage_path, d.title)
  from page p
  join public.documents d on d.id = p.document_id
  order by p.place;
end $$;


-- Their queries are search_chunks's rounds now.
drop function public.bm25_top(uuid, tsquery, text[], float8[], float8, real, real, uuid[],
                              uuid[], text[], int, tsquery);
drop function public.bm25_boosted_top(tsquery, text[], float8[], float8, real, real, uuid[],
                                      float8[], float8[], int, tsquery);
