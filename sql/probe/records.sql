-- Every record of the probes, with the file it came from: raw_records (jsonl.ts) joined to
-- source_files. A results row's envelope is resolved once (omg_envelope), for the checks and tables
-- that look inside it.
create or replace table records as
select s.probe, s.kind, s.rel, s.session_id as file_session, r.file, r.rec, r.json,
       case when s.kind = 'results' then omg_envelope(r.json -> '$.envelope') end as env
from raw_records r join source_files s on s.abs = r.file
