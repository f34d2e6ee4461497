-- settle_embeddings (20260101007300) is upkeep: the embed function calls it to move a
-- promotion's vectors into place or drop a left model's, steps nobody waits on a page for.
-- Its calls are small, so localbase queued each ahead of bulk work as if someone's click,
-- and a hundred of them took turns with members' requests. Declared bulk, localbase queues
-- them behind the requests someone is waiting on (as count_document_stats, 20260101006200).
-- Postgres itself only sets the placeholder for the call's duration.
alter function public.settle_embeddings(uuid, uuid, int, int) set localbase.queue = 'bulk';
