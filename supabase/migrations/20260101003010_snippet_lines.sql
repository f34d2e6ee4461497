-- Search snippets of two or three lines around the match, in whole lines where the passage
-- has them (search_chunks calls this; only this function changes).
--
-- Before, ts_headline chose 15 to 35 words of a 420-character window: one or two lines on the
-- result card, often starting or ending halfway through a CSV record or a table row, whose
-- lines the chunker keeps whole. Now the window itself is the snippet, about 320 characters
-- (three lines of a result card): it starts where the first match's line starts, when that is
-- at most 120 characters before it (the start of the passage when the match is in its first
-- 100), so a record or row is never cut at its start, and ends at the last line break the
-- window holds after the match, so none is cut at its end. Prose without line breaks that near
-- is cut at spaces, as before, from about 100 characters before the match. ts_headline then only marks every match in the
-- window (HighlightAll): no fragment choice. The cost stays that of a few string functions
-- on one passage, and ts_headline over 320 characters, for each of a search's 10 results.
create or replace function public.search_snippet(content text, terms text[], tsq tsquery)
returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case when w.start > 1 then '… ' else '' end
    || ts_headline('public.sourcebook'::regconfig,
         replace(replace(replace(btrim(w.text, E' \t\r\n'), '&', '&amp;'), '<', '&lt;'), '>',
           '&gt;'),
         coalesce(tsq, ''::tsquery),
         'HighlightAll=true, StartSel=<mark>, StopSel=</mark>')
    || case when w.start + length(w.text) <= length(content) then ' …' else '' end
  from (
    select s.start,
      case
        when s.start + 320 > length(content) then substr(content, s.start)
        -- Whole lines: up to the last line break after the match ...
        when strpos(substr(content, s.p, s.start + 320 - s.p), E'\n') > 0
          then substring(substr(content, s.start, 320) from '^(.*)\n')
        -- ... or whole words.
        else coalesce(substring(substr(content, s.start, 321) from '^(.*)\s'),
          substr(content, s.start, 320))
      end as text
    from (
      select b.p,
        case
          when b.p <= 101 then 1
          -- The match's line starts the snippet when it starts near enough (a CSV record, a
          -- table row, a line of a PDF's text), so it is never cut short.
          when strpos(reverse(b.before), E'\n') > 0 then b.p - strpos(reverse(b.before), E'\n') + 1
          -- Prose: a word about 100 characters before the match.
          else b.p - 100 + coalesce(nullif(strpos(substr(content, b.p - 100, 100), ' '), 0), 1)
        end as start
      from (
        select m.p, substr(content, greatest(m.p - 120, 1), least(m.p - 1, 120)) as before
        from (
          select coalesce(min(nullif(strpos(l.text, t), 0)), 1) as p
          from (select lower(content) as text offset 0) l, unnest(terms) t
        ) m
      ) b
    ) s
  ) w
$$;
