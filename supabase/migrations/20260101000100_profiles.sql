-- Profiles: one row per auth user, created and kept in sync by triggers on auth.users.
-- Fellow workspace members read each other's profiles (policy added with workspaces).

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 100),
  avatar_color text not null check (avatar_color ~ '^#[0-9a-f]{6}$'),
  -- A copy of auth.users.email so member lists can show it; kept in sync by a trigger.
  email text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.profiles is 'Public face of a user: readable by the user and fellow members.';

-- A stable colour per user, picked from a palette that reads well on light and dark.
create function public.avatar_color_for(user_id uuid) returns text
language sql immutable
set search_path = ''
as $$
  select (array['#e11d48', '#db2777', '#c026d3', '#9333ea', '#4f46e5', '#2563eb', '#0284c7',
                '#0891b2', '#0d9488', '#059669', '#16a34a', '#65a30d', '#ca8a04', '#d97706',
                '#ea580c', '#dc2626'])[1 + get_byte(decode(md5(user_id::text), 'hex'), 0) % 16]
$$;

create function public.handle_auth_user_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.profiles (id, display_name, avatar_color, email)
    values (
      new.id,
      left(coalesce(
        nullif(btrim(new.raw_user_meta_data ->> 'display_name'), ''),
        -- What OAuth providers put there.
        nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''),
        nullif(btrim(new.raw_user_meta_data ->> 'name'), ''),
        nullif(split_part(new.email, '@', 1), ''),
        'Member'
      ), 100),
      public.avatar_color_for(new.id),
      lower(new.email)
    );
  elsif new.email is distinct from old.email then
    update public.profiles set email = lower(new.email), updated_at = now() where id = new.id;
  end if;
  return new;
end $$;

create trigger on_auth_user_created
after insert on auth.users
for each row execute function public.handle_auth_user_change();

create trigger on_auth_user_email_changed
after update of email on auth.users
for each row execute function public.handle_auth_user_change();

-- Keeps updated_at honest; every table with an updated_at column uses this trigger.
create function public.touch_updated_at() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end $$;

create trigger touch_updated_at
before update on public.profiles
for each row execute function public.touch_updated_at();

alter table public.profiles enable row level security;

-- Profiles are created by the trigger and edited only in their own display fields.
revoke insert, update, delete, truncate on public.profiles from anon, authenticated;
grant update (display_name, avatar_color) on public.profiles to authenticated;

create policy "Users read their own profile" on public.profiles
for select to authenticated
using (id = (select auth.uid()));

create policy "Users update their own profile" on public.profiles
for update to authenticated
using (id = (select auth.uid()))
with check (id = (select auth.uid()));
