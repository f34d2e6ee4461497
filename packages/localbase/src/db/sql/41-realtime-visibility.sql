-- Which changed rows each subscriber group can SELECT under RLS (docs §4.5 step 4), in one
-- call for all groups, as hosted Realtime's realtime.apply_rls does: for each distinct role
-- and claims, switch to them with set_config and run the primary-key lookup as dynamic SQL
-- (planned after the switch, so the policies of that role apply). Rows come back as
-- (group index, change number). Roles must exist (the caller checks SELECT privilege first).
create or replace function realtime.visible_rows(
  rel regclass, pk text[], ns int[], keys jsonb, roles text[], claims jsonb[]
) returns table (grp int, n int)
language plpgsql as $$
declare
  cond text;
  probe text;
  i int;
begin
  select string_agg(format('t.%I = (x.key ->> %s)::%s', p.col, p.pos - 1,
                           format_type(a.atttypid, a.atttypmod)), ' and ')
    into cond
    from unnest(pk) with ordinality as p(col, pos)
    join pg_catalog.pg_attribute a on a.attrelid = rel and a.attname = p.col;
  probe := format('select $3, x.n from unnest($1::int[], array(select jsonb_array_elements($2)))'
                  ' as x(n, key) where exists (select 1 from %s t where %s)', rel, cond);
  for i in 1 .. coalesce(array_length(roles, 1), 0) loop
    -- Switching role is the costly part; callers sort viewers by role so it happens rarely.
    if i = 1 or roles[i] is distinct from roles[i - 1] then
      perform set_config('role', roles[i], true), set_config('request.jwt.claim.role', roles[i], true);
    end if;
    perform set_config('request.jwt.claims', claims[i]::text, true),
            set_config('request.jwt.claim.sub', coalesce(claims[i] ->> 'sub', ''), true);
    return query execute probe using ns, keys, i;
  end loop;
end $$;
revoke all on function realtime.visible_rows(regclass, text[], int[], jsonb, text[], jsonb[]) from public;
