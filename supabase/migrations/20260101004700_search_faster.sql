-- search_snippet computes each value once: the same snippets, less CPU per search result.
--
-- Profiled inside PGlite (bench/search-profile.ts: each top-level statement of search_chunks
-- timed, each helper's self time) on bench:search's SciFact corpus at 20,000 chunks, the 300
-- claims spent about 60% of their time in the lexical rounds (bm25_top: per candidate, the
-- BM25 subquery costs about three times the index and the row together) and 25-30% in the
-- final statement, most of that in search_snippet: 0.4-0.5 ms of CPU for each of a search's
-- ten results, where ts_headline itself takes under 0.1 ms.
--
-- The snippet's start was a subquery that the planner flattens into the expressions using
-- it, so the first match's line start (strpos, reverse and substr over the passage, each
-- walking its UTF-8 from the start) was computed again for every use. Now each value is
-- computed once, in order, the lower-cased passage too (it was once per query term): 0.20 ms
-- a snippet against 0.48 (500 passages holding any of eight terms, run three times each way,
-- alternately, CPU time on a machine at load 18 on 2 cores). The snippets are the same
-- (supabase/tests/search-snippet-rewrite.test.ts; bench/search-compare.ts compares them
-- with every result).
--
-- search_chunks before and after, each query run alternately both ways on one database
-- (bench/search-compare.ts, CPU time; the same ids, scores to 9 decimals and snippets at top
-- 10 and 20, whole workspace and filtered to one document, every time):
--   bench:search's SciFact corpus at 100,000 chunks, 100 claims (400 results compared, none
--   different): p50 19.5 -> 16.8 ms (0.86), p95 55.3 -> 53.0 ms (0.96), total 0.86
--   bench:search's library corpus at 5,000 chunks, the 25 development questions (100 compared,
--   none different): p50 0.94, p95 1.00, total 0.87
--   eval:retrieval's SciFact test workspace (5,183 abstracts), its 300 claims (1,800 compared,
--   top 200 too, none different): p50 0.95, p95 0.99, total 0.95
-- The slowest searches are slow in their rounds, which this leaves as they were: profiled
-- again at 100,000 chunks after this change, the rounds are 87% of the slowest 5% of claims'
-- time (55% of the others'), bm25_top 64% of all, the final statement 5% of the slowest.
--
-- Tried and dropped: BM25 in bm25_top summed by chunk over its unnested query lexemes (a
-- ProjectSet and a grouping instead of a subquery per candidate): no faster in CPU, and 49
-- of 600 results differed.
create or replace function public.search_snippet(content text, terms text[], tsq tsquery)
returns text
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  lowered constant text := lower(content);
  -- The first match: the earliest any term starts, in the lower-cased passage.
  p int := (select coalesce(min(nullif(strpos(lowered, t), 0)), 1) from unnest(terms) t);
  before text := substr(content, greatest(p - 120, 1), least(p - 1, 120));
  start int;
  piece text;
begin
  start := case
    when p <= 101 then 1
    -- The match's line starts the snippet when it starts near enough (a CSV record, a table
    -- row, a line of a PDF's text), so it is never cut short.
    when strpos(reverse(before), E'\n') > 0 then p - strpos(reverse(before), E'\n') + 1
    -- Prose: a word about 100 characters before the match.
    else p - 100 + coalesce(nullif(strpos(substr(content, p - 100, 100), ' '), 0), 1)
  end;
  piece := case
    when start + 320 > length(content) then substr(content, start)
    -- Whole lines: up to the last line break after the match ...
    when strpos(substr(content, p, start + 320 - p), E'\n') > 0
      then substring(substr(content, start, 320) from '^(.*)\n')
    -- ... or whole words.
    else coalesce(substring(substr(content, start, 321) from '^(.*)\s'),
      substr(content, start, 320))
  end;
  return case when start > 1 then '… ' else '' end
    || ts_headline('public.sourcebook'::regconfig,
         replace(replace(replace(btrim(piece, E' \t\r\n'), '&', '&amp;'), '<', '&lt;'), '>',
           '&gt;'),
         coalesce(tsq, ''::tsquery),
         'HighlightAll=true, StartSel=<mark>, StopSel=</mark>')
    || case when start + length(piece) <= length(content) then ' …' else '' end;
end $$;

