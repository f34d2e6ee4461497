-- The database's clock, for the one rule that compares a time with now: a processing
-- document whose updated_at (written by the database) is over a minute old is interrupted.
-- A browser or importer whose own clock is minutes off would otherwise call live imports
-- interrupted, or dead ones alive; callers read this instead (the web app once, as an offset
-- from its own clock, the importers before each decision). It returns the time and nothing
-- else, so any signed-in caller may read it.
create function public.database_now()
returns timestamptz
language sql
stable
set search_path = ''
as $$
  select pg_catalog.now()
$$;

revoke execute on function public.database_now() from public, anon;
grant execute on function public.database_now() to authenticated, service_role;
