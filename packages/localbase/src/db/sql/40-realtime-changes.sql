-- postgres_changes without logical decoding (PGlite has none, docs §9): every table in the
-- supabase_realtime publication gets an AFTER ROW trigger that queues the change; a NOTIFY
-- (empty payload, so Postgres folds it to one per transaction) wakes the realtime service,
-- which drains the queue. Rows are kept as their composite text output, which is exactly
-- the Postgres text form of each column that wal2json would send (§10.2 trap 20).
create table if not exists realtime.changes (
  id bigint generated always as identity primary key,
  relid oid not null,
  type text not null,
  record text,
  old_record text,
  committed_at timestamptz not null default clock_timestamp()
);
revoke all on realtime.changes from public, anon, authenticated, service_role;

create or replace function realtime.capture_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into realtime.changes (relid, type, record, old_record)
  values (tg_relid, tg_op,
          case when tg_op <> 'DELETE' then new::text end,
          case when tg_op <> 'INSERT' then old::text end);
  perform pg_notify('localbase_realtime_changes', '');
  return null;
end $$;

-- Makes the triggers match the publication: added tables gain one, removed tables lose it.
create or replace function realtime.sync_change_triggers() returns void
language plpgsql security definer set search_path = '' as $$
declare
  rel regclass;
begin
  for rel in
    select format('%I.%I', p.schemaname, p.tablename)::regclass
    from pg_catalog.pg_publication_tables p
    where p.pubname = 'supabase_realtime'
    except
    select t.tgrelid::regclass from pg_catalog.pg_trigger t
    where t.tgname = 'localbase_realtime_changes'
  loop
    execute format('create trigger localbase_realtime_changes after insert or update or delete'
                   ' on %s for each row execute function realtime.capture_change()', rel);
  end loop;
  for rel in
    select t.tgrelid::regclass from pg_catalog.pg_trigger t
    where t.tgname = 'localbase_realtime_changes'
    except
    select format('%I.%I', p.schemaname, p.tablename)::regclass
    from pg_catalog.pg_publication_tables p
    where p.pubname = 'supabase_realtime'
  loop
    execute format('drop trigger localbase_realtime_changes on %s', rel);
  end loop;
end $$;

create or replace function realtime.on_publication_ddl() returns event_trigger
language plpgsql as $$
begin
  perform realtime.sync_change_triggers();
end $$;

-- `alter publication supabase_realtime add table …` in a migration just works; CREATE TABLE
-- is included for publications created `for all tables`.
do $$ begin
  if not exists (select from pg_event_trigger where evtname = 'localbase_realtime_publication') then
    create event trigger localbase_realtime_publication on ddl_command_end
      when tag in ('CREATE PUBLICATION', 'ALTER PUBLICATION', 'DROP PUBLICATION', 'CREATE TABLE')
      execute function realtime.on_publication_ddl();
  end if;
end $$;

-- One postgres_changes filter (col=op.value), with the operators and semantics of hosted
-- Realtime's realtime.check_equality_op. `value` is the column's text output, `type_` its type.
create or replace function realtime.filter_matches(
  op text, type_ regtype, value text, operand text, negate boolean
) returns boolean
language plpgsql stable set search_path = '' as $$
declare
  res boolean;
begin
  if op = 'isdistinct' then
    execute format('select %L::%s is %s distinct from %L::%s',
                   value, type_, case when negate then 'not' else '' end, operand, type_)
      into res;
    return res;
  end if;
  if op = 'is' then
    if operand not in ('null', 'true', 'false', 'unknown') then
      return false;
    end if;
    execute format('select %L::%s is %s %s', value, type_,
                   case when negate then 'not' else '' end, operand)
      into res;
    return res;
  end if;
  execute format('select %L::%s %s (%L::%s)', value, type_,
                 case op when 'eq' then '=' when 'neq' then '<>' when 'lt' then '<'
                   when 'lte' then '<=' when 'gt' then '>' when 'gte' then '>='
                   when 'in' then '= any' when 'like' then 'like' when 'ilike' then 'ilike'
                   when 'match' then '~' when 'imatch' then '~*' end,
                 operand, case when op = 'in' then type_::text || '[]' else type_::text end)
    into res;
  return coalesce(case when negate then not res else res end, false);
exception when others then
  -- A value that does not cast to the column's type matches nothing, as a failed lookup would.
  return false;
end $$;
