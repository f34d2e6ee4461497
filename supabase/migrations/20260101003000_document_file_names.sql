-- A document's file name, kept apart from its title.
--
-- Until now the title was the uploaded file's name (`JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf`).
-- Import now writes a readable title (packages/core's readableTitle: "Johnson Johnson 2023 Q2
-- Earnings"), which editors may change, and keeps the file name here, as a detail and as what
-- tools (eval:library) match files by.

-- Filled for the rows stored before, then required (see the end of this file).
alter table public.documents add column file_name text;

-- A row written without a file name (by a client from before this column, or a corpus loaded
-- row by row) takes its title, which is what the file name used to be.
create function public.default_file_name() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.file_name := coalesce(nullif(new.file_name, ''), new.title);
  return new;
end $$;

create trigger default_file_name
before insert on public.documents
for each row execute function public.default_file_name();

-- The document context (20260101002700_document_signals.sql) is what every passage of a long
-- document is found by: it names the file as well as the title, so a search for what the file
-- name says finds it whatever an editor titles it. Once when they are the same.
create or replace function public.set_document_context() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.context := (
    select public.bm25_lexemes(concat_ws(' ', d.title, nullif(d.file_name, d.title),
      array_to_string(d.names, ' '), array_to_string(d.periods, ' '), new.opening))
    from public.documents d
    where d.id = new.document_id and d.chunk_count > 1);
  return new;
end $$;

drop trigger refresh_document_context on public.documents;
create trigger refresh_document_context
after update of title, file_name, names, periods, chunk_count on public.documents
for each row
when ((old.title, old.file_name, old.names, old.periods, old.chunk_count)
      is distinct from (new.title, new.file_name, new.names, new.periods, new.chunk_count))
execute function public.refresh_document_context();

-- Documents stored before. The title was the file name unless someone renamed the document:
-- it was when the original's Storage key ends in it (as safeFileName writes keys). Those get
-- their title as file name and a readable title made from it; renamed ones keep their title,
-- with the key's last segment as file name; rows without an original keep their title as both.
-- readable_title mirrors packages/core's readableTitle for this one update (it lives in
-- pg_temp, gone with the session: new documents get theirs from the import pipeline).
create function pg_temp.readable_title(file_name text) returns text
language plpgsql immutable
as $$
declare
  base text := regexp_replace(file_name, '^.*[/\\]', '');
  words text[] := '{}';
  word text;
  part text;
begin
  foreach word in array regexp_split_to_array(
    regexp_replace(base, '\.[A-Za-z0-9]{1,5}$', ''), '[[:space:]_.,;()+\[\]–—-]+') loop
    continue when word = '';
    -- Q2, H1, 10K: a short code stays whole.
    if word !~* '^([a-z][0-9]{1,2}|[0-9]{1,3}[a-z])$' then
      word := regexp_replace(word, '([a-z])(?=[A-Z])', '\1 ', 'g');
      word := regexp_replace(word, '([A-Z])(?=[A-Z][a-z])', '\1 ', 'g');
      word := regexp_replace(word, '([A-Za-z])(?=[0-9])', '\1 ', 'g');
      word := regexp_replace(word, '([0-9])(?=[A-Za-z])', '\1 ', 'g');
    end if;
    foreach part in array string_to_array(word, ' ') loop
      -- "2023 Q 2" from 2023Q2: a letter and its digits go back together.
      if cardinality(words) > 0 and words[cardinality(words)] ~ '^[A-Za-z]$'
         and part ~ '^[0-9]{1,2}$' then
        words[cardinality(words)] := words[cardinality(words)] || part;
      else
        words := words || part;
      end if;
    end loop;
  end loop;
  words := array(
    select case
      when char_length(w) > 3 and w = upper(w) and w ~ '[A-Z]' then left(w, 1) || lower(substr(w, 2))
      when w ~ '^[a-z]' then upper(left(w, 1)) || substr(w, 2)
      else w end
    from unnest(words) with ordinality u (w, i)
    order by i);
  return coalesce(nullif(array_to_string(words, ' '), ''), base);
end $$;

update public.documents d
set file_name = d.title,
  title = left(pg_temp.readable_title(d.title), 500)
where d.storage_path is not null
  and right(d.storage_path, char_length(d.title) + 1)
    = '/' || regexp_replace(d.title, '[^[:alnum:]_. ()!,''&$@=;+-]', '_', 'g');

update public.documents d
set file_name = coalesce(nullif(regexp_replace(d.storage_path, '^.*/', ''), ''), d.title)
where d.file_name is null or d.file_name = '';

-- The empty default stands for "none given" (default_file_name replaces it), so that clients
-- may leave the column out.
alter table public.documents
  alter column file_name set default '',
  alter column file_name set not null,
  add constraint documents_file_name_check
    check (char_length(btrim(file_name)) between 1 and 500);
