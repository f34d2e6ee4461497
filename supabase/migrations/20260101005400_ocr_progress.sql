-- OCR progress for every member (issue #17). The uploader's tab hears "Recognising page 4 of
-- 30" from its own worker, but teammates watch the documents row through Realtime, and stage
-- and progress alone only say "Extracting text… 22%". The row now carries the page OCR is on:
-- documents.ocr_page is the page being recognised (1-based, among the document's pages without
-- text) and ocr_page_count how many of them OCR reads. The importer writes both with each
-- page (ProgressReporter.ocrPage); both are null whenever no page is being recognised.
alter table public.documents
  add column ocr_page integer,
  add column ocr_page_count integer,
  add constraint documents_ocr_page_check check (
    (ocr_page is null) = (ocr_page_count is null)
    and (ocr_page is null or ocr_page between 1 and ocr_page_count)
  );

-- A page number is only true while extraction runs: whatever ends or moves the import on
-- (ready, failed, reaped, a later stage) clears it, so no path that writes the row (in SQL, or
-- from an older client that does not know the columns) leaves a stale "page 3 of 30" behind.
create function public.clear_ocr_page() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status is distinct from 'processing' or new.stage is distinct from 'extracting' then
    new.ocr_page := null;
    new.ocr_page_count := null;
  end if;
  return new;
end $$;

create trigger clear_ocr_page
before insert or update on public.documents
for each row execute function public.clear_ocr_page();
