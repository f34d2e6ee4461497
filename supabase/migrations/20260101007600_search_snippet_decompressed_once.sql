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
