-- search_snippet decompresses its passage once (issue #16): the same snippets, about a fifth
-- less CPU each, and a search shows 20 of them.
--
-- Most passages are stored compressed (pglz: 3,161 of the 3,376 chunks of the 12 financebench
-- filings bench:load-kinds imports; a row over about 2 kB is compressed, content first), and a
-- PL/pgSQL variable keeps the value as it came, so every function given `content` (lower, the
-- substr calls, length twice) decompressed it again. A copy made once (content || '') is
-- plain text. The first match is found by a loop of simple expressions too, not a subquery
-- over the terms (a query of its own each call).
--
-- Profiled on that library (bench/search-profile.ts --corpus short, bench/short-queries.ts:
-- bench:load's phrases and the first 2-4 words of each financebench-dev question, 20
-- results): search_chunks spent about 8.5 ms of CPU a search, 2.5 of them in search_snippet,
-- 1.9 in the boosted documents' rounds, 1.0 in the other rounds. CPU per snippet over those
-- searches' 1,716 results (each run five times): 113 us before, 90 after, of which
-- ts_headline on the piece is 48 and reading the passage 9.
--
-- search_chunks before and after (bench/search-compare.ts --deep 200, each query alternately
-- both ways on one database, CPU time; ids, scores to 9 decimals and snippets at 10, 20 and 200
-- results, whole workspace and filtered to one document; a machine at load 11-24 on 2 cores):
--   the 12 filings, the 87 short queries (--short): 522 compared, none different; p50 0.96,
--   p95 0.92, total 0.90
--   bench:search's SciFact corpus at 100,000 chunks, 40 claims: 240 compared, none different;
--   p50 0.97, p95 0.96, total 0.84
--   bench:search's library corpus at 100,000 chunks, 50 development questions: 300 compared,
--   none different; p50 1.02, p95 0.97, total 0.97
--   eval:retrieval's SciFact workspace (beir), 100 claims: 600 compared, none different; p50
--   0.96, p95 0.96, total 0.95
-- bench:load-kinds --files 12 --requests 200 --kinds search, before and after in turn: database
-- worker CPU per search 11.6 / 12.15 ms before (load 24 and 13), 9.65 / 8.75 ms after (load 12
-- and 11); the machine's load moved as much as the change, so the in-process ratios above are
-- the measure. Far from the issue's 3.5 ms: what is left is spread over the rounds (about 0.25
-- ms a round before any chunk is scored, 6.9 us a chunk scored) and the statements each search
-- runs once.
--
-- As in 20260101004700_search_faster.sql otherwise, value for value.
create or replace function public.search_snippet(content text, terms text[], tsq tsquery)
returns text
language plpgsql immutable parallel safe
set search_path = ''
as $$
declare
  -- The passage decompressed once: each use of `content` would decompress it again.
  body constant text := content || '';
  lowered constant text := lower(body);
  len constant int := length(body);
  -- The first match: the earliest any term starts, in the lower-cased passage.
  p int;
  at int;
  term text;
  before text;
  start int;
  piece text;
begin
  foreach term in array coalesce(terms, '{}') loop
    at := strpos(lowered, term);
    if at > 0 and (p is null or at < p) then
      p := at;
    end if;
  end loop;
  p := coalesce(p, 1);
  before := substr(body, greatest(p - 120, 1), least(p - 1, 120));
  start := case
    when p <= 101 then 1
    -- The match's line starts the snippet when it starts near enough (a CSV record, a table
    -- row, a line of a PDF's text), so it is never cut short.
    when strpos(reverse(before), E'\n') > 0 then p - strpos(reverse(before), E'\n') + 1
    -- Prose: a word about 100 characters before the match.
    else p - 100 + coalesce(nullif(strpos(substr(body, p - 100, 100), ' '), 0), 1)
  end;
  piece := case
    when start + 320 > len then substr(body, start)
    -- Whole lines: up to the last line break after the match ...
    when strpos(substr(body, p, start + 320 - p), E'\n') > 0
      then substring(substr(body, start, 320) from '^(.*)\n')
    -- ... or whole words.
    else coalesce(substring(substr(body, start, 321) from '^(.*)\s'),
      substr(body, start, 320))
  end;
  return case when start > 1 then '… ' else '' end
    || ts_headline('public.sourcebook'::regconfig,
         replace(replace(replace(btrim(piece, E' \t\r\n'), '&', '&amp;'), '<', '&lt;'), '>',
           '&gt;'),
         coalesce(tsq, ''::tsquery),
         'HighlightAll=true, StartSel=<mark>, StopSel=</mark>')
    || case when start + length(piece) <= len then ' …' else '' end;
end $$;
