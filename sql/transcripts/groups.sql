-- scan_groups from the kept lines (scan-lines.sql), as scan.sql makes it from the pass, and the
-- responses messages.sql reads.
create or replace temp table scan_groups as
select abs, session_id,
       omg_group(o, keyless, mistyped or coalesce(response.mistyped, false), type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
from transcript_scan
group by abs, session_id;

create or replace temp view scan_responses as
select abs, unnest(response)
from transcript_scan
where response is not null;
