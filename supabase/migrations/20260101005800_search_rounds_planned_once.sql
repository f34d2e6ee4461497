-- search_chunks's lexical rounds no longer plan their scoring query on every call: bm25_top and
-- bm25_boosted_top are PL/pgSQL now, the same query, so its plan is made once and cached.
--
-- A SQL function that is not inlined (one with `set search_path` never is) parses and plans its
-- query again on every call: a search calls them once per round, 5-25 times, and at 100,000
-- chunks each call cost 0.2-0.4 ms more than a cached plan's (a round finding no chunk: 0.34-0.67
-- ms against 0.13-0.20 ms, 300 calls each, CPU time). Under search_chunks's plan_cache_mode
-- (force_generic_plan, which the functions it calls run under too) the cached plan is generic,
-- as the rounds' own statements are: the GIN index finds the chunks whatever the tsquery.
--
-- search_chunks before and after (bench/search-compare.ts, each query alternately both ways on
-- one database, CPU time; the same ids, scores to 9 decimals and snippets every time), on
-- bench:search's SciFact corpus at 100,000 chunks, 100 claims (400 results compared, none
-- different), twice: total 0.90 and 0.88, p50 0.95 and 1.00, p95 1.26 and 1.09. What is saved
-- is a share of every search (the planning), not of the slowest ones' time: those score
-- thousands of chunks, which costs what it did (a round scoring about 2,500 chunks: 17.2-17.4
-- ms at best either way, medians 18-20 ms), so p95 is no better (the two runs' 1.26 and 1.09
-- are the tail of 100 claims on a machine at load 10-14: not shown to be worse either).
--
-- Where the time of each scored chunk goes (bench:search's SciFact corpus at 100,000 chunks, the
-- 2,995 chunks holding one term, each query run 7 times alternately, median CPU time per chunk):
--   found by the GIN index and read                                            1.5 us
--   + the rarer terms' test (not lexemes @@ skip)                              +0.4 us
--   + ts_filter(setweight(lexemes, 'A', terms), '{a}') alone                   +2.0 us
--   + unnest of that in a subquery, counted                                    +2.9 us
--   + the BM25 sum (bm25_top's scoring as it is)                               +1.9 us
--   = 8.2-8.7 us; the same chunks' lexemes unnested whole, filtered by = any(terms): 47 us.
-- The lexemes are not decompressed at all: they are about 1.3 kB and stored uncompressed
-- (pg_column_compression is null for every one of them; storage main only compresses a row over
-- 2 kB, and the content is compressed first), so detoasting costs nothing, and a copy of those
-- chunks (read by a sequential scan) scored them in 6.6-7.3 us a chunk with storage main,
-- extended or external alike. No column's storage changes here: no table is rewritten.
-- Nor does filtering once and testing `skip` on the filtered lexemes (a subquery with offset
-- 0: 8.3 us against 8.7), nor BM25 summed over a lateral unnest and grouped by chunk (8.2 us)
-- or over a select-list unnest grouped by chunk (8.9 us) help: the subquery per chunk stays.
-- Nor, in PL/pgSQL, does handing setweight a flat copy of the query's terms made once (the
-- function's array arguments are expanded arrays, which setweight flattens for every chunk).

-- As in 20260101002300_search_tree_rounds.sql, planned once.
create or replace function public.bm25_top(
  workspace_id uuid, tsq tsquery, terms text[], idfs float8[], avglen float8, k1 real,
  b real, document_ids uuid[], hidden_ids uuid[], types text[], lim int, skip tsquery
)
returns table (id uuid, bm25 float8)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select c.id, (
    select sum(idfs[array_position(terms, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
               / (cardinality(t.positions) + k1 * (1 - b + b * c.lexeme_count / avglen)))
    -- Only the query's lexemes, with their positions: weight them A, keep the A's.
    from unnest(ts_filter(setweight(c.lexemes, 'A', terms), '{a}')) t
  ) as bm25
  from public.chunks c
  where c.workspace_id = bm25_top.workspace_id and c.lexemes @@ tsq
    -- A NOT the index cannot use: tested on the row.
    and (skip is null or not c.lexemes @@ skip)
    and (bm25_top.document_ids is null or c.document_id = any (bm25_top.document_ids))
    and (hidden_ids is null or c.document_id <> all (hidden_ids))
    and (bm25_top.types is null or exists (
      select from public.documents d
      where d.id = c.document_id and public.document_kind(d.mime_type) = any (bm25_top.types)))
  order by 2 desc, c.id
  limit lim;
end $$;

-- As in 20260101003800_search_boosted_rounds.sql, planned once.
create or replace function public.bm25_boosted_top(
  tsq tsquery, terms text[], idfs float8[], avglen float8, k1 real,
  b real, boosted_ids uuid[], boosted_scores float8[], boosted_favour float8[], lim int,
  skip tsquery
)
returns table (id uuid, score float8)
language plpgsql stable
set search_path = ''
as $$
begin
  return query
  select x.id, boosted_favour[x.k] * (boosted_scores[x.k] + coalesce((
    select sum(idfs[array_position(terms, t.lexeme)] * cardinality(t.positions) * (k1 + 1)
               / (cardinality(t.positions) + k1 * (1 - b + b * x.lexeme_count / avglen)))
    from unnest(ts_filter(setweight(x.lexemes, 'A', terms), '{a}')) t
  ), 0)) as score
  from (
    select c.id, c.lexemes, c.lexeme_count, array_position(boosted_ids, c.document_id) as k
    from public.chunks c
    -- No test of the workspace: the boosted documents are the workspace's, and without one
    -- the planner intersects the GIN index's chunks with the documents' (their unique
    -- index), reading only chunks that are both.
    where c.lexemes @@ tsq and c.document_id = any (boosted_ids)
      and (skip is null or not c.lexemes @@ skip)
  ) x
  order by 2 desc, x.id
  limit lim;
end $$;
