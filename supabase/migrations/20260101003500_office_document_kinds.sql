-- Slides and spreadsheets are read since issue #17: the type filter knows them as pptx and xlsx
-- (macro-enabled workbooks are xlsx too, as their text is read the same way).
create or replace function public.document_kind(mime_type text) returns text
language sql immutable parallel safe
set search_path = ''
as $$
  select case split_part(lower(btrim(mime_type)), ';', 1)
    when 'application/pdf' then 'pdf'
    when 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' then 'docx'
    when 'application/vnd.openxmlformats-officedocument.presentationml.presentation' then 'pptx'
    when 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' then 'xlsx'
    when 'application/vnd.ms-excel.sheet.macroenabled.12' then 'xlsx'
    when 'text/html' then 'html'
    when 'application/xhtml+xml' then 'html'
    when 'text/markdown' then 'md'
    when 'text/plain' then 'txt'
    when 'text/csv' then 'csv'
  end
$$;
