-- Local development data (`supabase db reset` and localbase's first start; never hosted).
-- A demo account, demo@sourcebook.local / sourcebook-demo, owning one workspace.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at
) values (
  '00000000-0000-0000-0000-000000000000', '5eed0000-0000-4000-8000-000000000001',
  'authenticated', 'authenticated', 'demo@sourcebook.local',
  extensions.crypt('sourcebook-demo', extensions.gen_salt('bf')), now(),
  '{"provider": "email", "providers": ["email"]}', '{"display_name": "Demo"}', now(), now()
);

insert into auth.identities (
  provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at
) values (
  '5eed0000-0000-4000-8000-000000000001', '5eed0000-0000-4000-8000-000000000001',
  '{"sub": "5eed0000-0000-4000-8000-000000000001", "email": "demo@sourcebook.local", "email_verified": true}',
  'email', now(), now(), now()
);

-- The creator becomes its owner through the workspace trigger.
insert into public.workspaces (id, name, created_by)
values ('5eed0000-0000-4000-8000-0000000000a1', 'Demo workspace',
        '5eed0000-0000-4000-8000-000000000001');
