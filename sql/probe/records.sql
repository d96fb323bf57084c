-- Every record of the probes, with the file it came from: raw_records (jsonl.ts) joined to
-- source_files. A results row's envelope is resolved once (omg_envelope), for the checks and tables
-- that look inside it; an array's count of "type":"result" elements is kept for its check (one).
create or replace table records as
select s.probe, s.kind, s.rel, s.session_id as file_session, r.file, r.rec, r.json,
       case when s.kind = 'results' then omg_envelope(r.json -> '$.envelope') end as env,
       case when s.kind = 'results' and json_type(r.json, '$.envelope') = 'ARRAY'
            then len(list_filter(from_json(r.json -> '$.envelope', '["JSON"]'), x -> (x ->> 'type') = 'result')) end as envelope_results
from raw_records r join source_files s on s.abs = r.file
