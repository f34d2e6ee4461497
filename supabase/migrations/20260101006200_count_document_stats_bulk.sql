-- count_document_stats is an import's work, nobody waits on a page for it: declared bulk, so
-- that localbase queues its calls behind the requests someone is waiting on instead of ahead
-- of them (each held the database 100-800 ms; by its small scalar arguments alone localbase
-- took it for interactive). A placeholder setting: Postgres sets it for the call's duration
-- and nothing reads it; hosted PostgREST ignores it.
alter function public.count_document_stats(uuid, int) set localbase.queue = 'bulk';
