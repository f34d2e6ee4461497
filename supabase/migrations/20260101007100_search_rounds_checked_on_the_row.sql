-- search_chunks's lexical rounds check on the row what the index was not asked (issue #15): the
-- same top, exactly, with fewer chunks scored in the slowest searches. Redefines bm25_enough (a
-- budget of ways and terms, its defaults as before) and search_chunks (from
-- 20260101006300_search_first_pool_and_ties.sql, one check added in its rounds); bm25_top and
-- bm25_boosted_top are unchanged.
--
-- Each round asks the GIN index for the chunks holding its term and enough of the commoner ones
-- to reach the pool's last score (bm25_enough). So that the index's work stays small, that
-- condition names at most 16 ways of the 8 rarest of those terms: past them the commonest terms
-- count as present, and a round of a long query lets through chunks whose terms could not reach
-- the pool together. Traced on bench:search's SciFact corpus at 100,000 chunks (300 claims, each
-- round's chunks with their terms and the bar they faced): of about 141,000 chunks scored in
-- rounds with a bar, about 49,400 held too few of the query's terms to reach it. A round such
-- as `transplant & (interleukin | antibodi | anti | induct | infect | stem | therapi | higher)`
-- (the eight rarest of its commoner terms named, the others counted as present) scored 1,220
-- chunks.
--
-- Now the round also tests, on each chunk the index finds, the same condition with a budget of
-- 64 ways of 12 terms (`checked`, folded into the round's `skip`, which bm25_top tests on the row
-- before scoring): a tsquery test on the chunk's lexemes costs a fraction of scoring it (the
-- rarer terms' test 0.4 us against 6-7 us, 20260101005800_search_rounds_planned_once.sql).
-- Exact: a chunk the check passes over has terms whose bounds add up to less than the pool's
-- last score, so it could not enter the pool, as in the index's own condition; the bounds are
-- the peaks' (20260101002200_search_peaks.sql), which every insert raises before a search can
-- read them (tested in retrieval-filters.test.ts).
--
-- Chunks scored (bench/search-candidates.ts, the same 300 claims, a count that does not move
-- with the machine's load): 197,350 in all before, 147,075 after (-25%); p50 347 -> 305 a claim,
-- p95 2,374 -> 1,427 (-40%); 112 claims fewer, none more. The slowest: "Mutations in G-Beta
-- protein GNB2 ..." 6,799 -> 2,135, "Autologous transplantation ... opportunistic infections"
-- 5,903 -> 1,049.
--
-- search_chunks before and after (bench/search-compare.ts --deep 200, each query alternately both
-- ways on one database, CPU time; ids, scores to 9 decimals and snippets at 10, 20 and 200
-- results, whole workspace and filtered to one document; a machine at load 10-20):
--   bench:search's SciFact corpus at 100,000 chunks, 60 claims: 360 compared, none different;
--   p50 0.98, p95 0.69, total 0.88 (the first 60 claims at 256 ways: p95 0.72, total 0.76)
--   bench:search's library corpus at 100,000 chunks, the 25 development questions: 150
--   compared, none different; p50 0.89, p95 0.82, total 0.74
--   eval:retrieval's SciFact workspace (beir), 40 claims: 240 compared, none different; p50
--   0.98, p95 0.88, total 0.92
-- bench:search at 100,000 chunks, settled SQL p50/p95 (CPU p95; the search function's p95 and
-- its ratio to SQL), four runs in turn on a shared machine (1-minute load 2-4 while timing):
--   after   14.1/40.4 ms (40.9; 46.0, 1.14)
--   after   16.2/46.0 ms (44.4; 56.6, 1.23)
--   before  16.6/52.8 ms (48.4; 63.7, 1.21)
--   after   14.5/41.8 ms (42.4; 45.3, 1.08)
-- Last session's two idle runs before: p95 45.6 and 50.2. Below 50 in every run after, not yet
-- reliably below 40: the slowest claims still score 1,000-2,000 chunks.
--
-- The budget: 256 ways of 16 terms scored 137,446 chunks (p95 1,275) and 1,024 ways 135,680, but
-- building the condition in PL/pgSQL costs more than what it saves: over 15 terms, 0.09-1.98 ms
-- a call at 256 ways (0.07-3.7 ms at 1,024) against 0.03-0.35 ms at 64 ways of 12 terms (200
-- calls each, CPU time), and a round calls it once.
--
-- Tried and dropped (chunks scored, the same 300 claims, with the check at 256 ways of 16):
-- - The first pool without its pair of the second and third rarest terms (it scored 2,988 chunks
--   holding `treat` and `use` for "Ivermectin is used to treat onchocerciasis."): 159,083 in
--   all against 137,446; that claim rose to 6,269, its rounds then scoring what the pair had
--   found with no bar.
-- - That pair only when the pool is not full after the pairs with the rarest term: 141,919
--   (52 claims more).
-- Measured and not built: bounds that also know the chunk's length (each term's peaks give the
-- most it adds to a chunk of a given length). Over the rounds' chunks above, about 91,500 could
-- reach the bar by their terms' bounds and 78,900 by their length-aware bounds (25,000 did): 14%
-- fewer than a check of the terms alone, for a length test bm25_top would take as a new argument.

-- As in 20260101002300_search_tree_rounds.sql, with its budget as arguments: at most `cap` ways,
-- of the `width` rarest terms (the commoner ones counted as present). The defaults are the
-- index's budget, as before.
drop function public.bm25_enough(text[], float8[], float8);
create function public.bm25_enough(terms text[], bounds float8[], need float8,
                                   cap int default 16, width int default 8)
returns tsquery
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
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
  -- Past `width` terms the ways multiply: the commonest beyond them count as present.
  while n > width loop
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

-- As in 20260101006300_search_first_pool_and_ties.sql, each round's chunks checked on the row
-- with a larger budget than the index's (`checked`).
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
    for i in 1 .. cardinality(known) loop
      theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
      select min(theta / x.favour - x.s) into need
      from unnest(boosted_scores, boosted_favour) x (s, favour);
      exit when need > (select sum(x) from unnest(bounds[i:]) x);
      round_query := public.any_lexeme(known[i:i]);
      enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], need - bounds[i]);
      if enough is not null then
        round_query := round_query && enough;
      end if;
      select coalesce(array_agg(m.id order by m.score desc, m.id), '{}'),
        coalesce(array_agg(m.score order by m.score desc, m.id), '{}')
      into top_ids, top_scores
      from (
        select p.id, p.score from unnest(top_ids, top_scores) p (id, score)
        union
        select r.id, r.score
        from public.bm25_boosted_top(round_query, known, idfs, avglen, k1, b, boosted_ids,
                                     boosted_scores, boosted_favour, pool,
                                     case when i > 1 then public.any_lexeme(known[:i - 1]) end) r
        order by 2 desc, 1
        limit pool
      ) m;
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
        select r.id, r.bm25
        from public.bm25_top(ws, first_query, known, idfs, avglen, k1, b, document_ids, passed,
                             types, pool, null) r
        order by 2 desc, 1
        limit pool
      ) m;
      first_done := coalesce(first_done || first_query, first_query);
      exit when cardinality(top_ids) = pool;
    end loop;
  end if;
  for i in 1 .. coalesce(cardinality(known), 0) loop
    theta := case when cardinality(top_ids) = pool then top_scores[pool] * (1 - 1e-9) else 0 end;
    -- The terms left could not reach the pool even together: no unscored chunk can.
    exit when theta > (select sum(x) from unnest(bounds[i:]) x);
    -- This round: chunks with term i and enough of the commoner ones to reach the pool; the
    -- GIN index finds them. Those holding a rarer term were settled in its round, and those
    -- the first pool found were scored there: they are passed over as they are read, before
    -- scoring (see 20260101002300_search_tree_rounds.sql). From the fourth round on, every
    -- chunk the first pool found holds a rarer term.
    round_query := public.any_lexeme(known[i:i]);
    enough := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i]);
    if enough is not null then
      round_query := round_query && enough;
    end if;
    skip := case when i > 1 then public.any_lexeme(known[:i - 1]) end;
    if i <= 3 and first_done is not null then
      skip := coalesce(skip || first_done, first_done);
    end if;
    -- The same need with a larger budget, tested on each chunk the index finds (see the header):
    -- no use when the index's condition left no way out.
    checked := public.bm25_enough(known[i + 1:], bounds[i + 1:], theta - bounds[i], 64, 12);
    if checked is not null and checked is distinct from enough then
      skip := coalesce(skip || !! checked, !! checked);
    end if;
    select coalesce(array_agg(m.id order by m.bm25 desc, m.id), '{}'),
      coalesce(array_agg(m.bm25 order by m.bm25 desc, m.id), '{}')
    into top_ids, top_scores
    from (
      select p.id, p.bm25 from unnest(top_ids, top_scores) p (id, bm25)
      union
      select r.id, r.bm25
      from public.bm25_top(ws, round_query, known, idfs, avglen, k1, b, document_ids, passed,
                           types, pool, skip) r
      order by 2 desc, 1
      limit pool
    ) m;
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

