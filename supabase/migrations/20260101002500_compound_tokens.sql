-- Compound tokens are found by their parts as well as whole, in chunks and in queries.
--
-- Postgres's parser keeps some tokens whole: hosts (Amazon.com, a file name such as
-- JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf), e-mail addresses, paths and slashed words (and/or,
-- Europe/Middle, 12/31/2019, U.S), URL paths and words of letters and digits (FY2019, Q2,
-- 2023Q2, 8K). Camel-case words (PlayStation, JPMorgan) are one word to it. So "Amazon" never
-- matched amazon.com, "2019" never matched FY2019 or 12/31/2019, "Europe" never matched
-- Europe/Middle. Each such token is now indexed whole and, once per occurrence, as its parts:
-- split at every character that is not a letter or digit, between letters and digits, and
-- at case changes inside a word. Parts of one or two letters and single digits are left out
-- (the whole keeps them findable): alone, the u of U.S, the fy of FY2019 or the q and 2 of
-- Q2 are rare terms that weigh heavily and say little. On the development library the fy
-- of "FY24" in one company's releases drew every question naming a fiscal year there
-- (document hit at 5: 0.68 before, 0.56 with them, 0.80 without). Numbers with points or
-- commas (3.5, 1.2.3, +0.50) stay whole: a table's every decimal would otherwise add more
-- integers. Hyphenated words were already split (20260101001100_bm25.sql). Queries go
-- through the same function, so a query's FY2019 finds "fiscal 2019" by 2019, and its
-- amazon.com still ranks amazon.com above a bare "Amazon".

-- The parts worth indexing of a compound token: "JPMorganChase2023Q2.pdf" → "Morgan Chase
-- 2023 pdf".
create function public.split_compound(token text) returns text
language sql immutable strict parallel safe
set search_path = ''
as $$
  select regexp_replace(regexp_replace(regexp_replace(token,
    '([[:lower:]](?=[[:upper:]])|[[:upper:]](?=[[:upper:]][[:lower:]])'
      '|[[:alpha:]](?=[[:digit:]])|[[:digit:]](?=[[:alpha:]]))', '\1 ', 'g'),
    '[^[:alnum:]]+', ' ', 'g'),
    '(^| )([[:alpha:]]{1,2}|[[:digit:]])(?= |$)', ' ', 'g')
$$;

-- The parts of a text's compound tokens, as text to parse again: those the parser kept whole
-- (read off the lexemes of `whole`, repeated as often as they occur, so a part counts as
-- often as its compound) and camel-case words (read off the text: lexemes are lower case).
create function public.compound_parts(whole tsvector, content text) returns text
language sql immutable strict parallel safe
set search_path = ''
as $$
  select concat_ws(' ',
    (select string_agg(repeat(public.split_compound(t.lexeme) || ' ', cardinality(t.positions)), '')
     from unnest(whole) t
     where t.lexeme ~ '[^[:alnum:]]|[[:alpha:]][[:digit:]]|[[:digit:]][[:alpha:]]'
       and t.lexeme !~ '^[-+]?[[:digit:].,]+$'),
    (select string_agg(public.split_compound(m[1]), ' ')
     from regexp_matches(content,
       '([[:alnum:]]*(?:[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]])[[:alnum:]]*)',
       'g') m))
$$;

-- As before, plus the parts. plpgsql to skip the second parse when there are none (most
-- chunks): about 1.3x the time of the whole-token lexemes alone.
create or replace function public.bm25_lexemes(content text) returns tsvector
language plpgsql immutable strict parallel safe
set search_path = ''
as $$
declare
  whole constant tsvector := to_tsvector('public.sourcebook'::regconfig,
    regexp_replace(content, '([[:alnum:]])-(?=[[:alnum:]])', '\1 ', 'g'));
  parts constant text := public.compound_parts(whole, content);
begin
  if parts !~ '[[:alnum:]]' then
    return whole;
  end if;
  return whole || to_tsvector('public.sourcebook'::regconfig, parts);
end $$;

-- Chunks stored before keep the lexemes of the old function until rewritten: rewrite them.
-- The update trigger moves the term statistics from the old lexemes to the new.
update public.chunks set content = content;
