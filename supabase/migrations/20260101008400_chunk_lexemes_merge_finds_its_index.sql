-- merge_chunk_lexemes (20260101008200_chunk_lexemes_merged_per_statement.sql) named its index:
-- with chunks_lexemes_idx dropped or renamed (rebuilt under another name, say), every write to
-- chunks failed on "relation does not exist". It now merges the pending list of each GIN index
-- chunks has on its lexemes, whatever its name, and of none when there is none: a write never
-- fails for want of the index. Looking the index up costs a catalog read per statement (a
-- chunk batch's statement inserts ~20 chunks of ~1.5 ms each).
create or replace function public.merge_chunk_lexemes() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  gin regclass;
begin
  for gin in
    select i.indexrelid::regclass
    from pg_catalog.pg_index i
    join pg_catalog.pg_class c on c.oid = i.indexrelid
    join pg_catalog.pg_am a on a.oid = c.relam
    join pg_catalog.pg_attribute t on t.attrelid = i.indrelid and t.attnum = i.indkey[0]
    where i.indrelid = 'public.chunks'::regclass and a.amname = 'gin' and t.attname = 'lexemes'
  loop
    perform pg_catalog.gin_clean_pending_list(gin);
  end loop;
  return null;
end $$;
