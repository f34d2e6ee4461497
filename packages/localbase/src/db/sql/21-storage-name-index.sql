-- Hosted Storage's index on each bucket's names in C order (its migration 0020), which range
-- scans over a folder's objects use (public.workspace_stored_bytes, say).
create index if not exists idx_objects_bucket_id_name on storage.objects (bucket_id, (name collate "C"));
