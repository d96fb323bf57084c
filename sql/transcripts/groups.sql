-- scan_groups from the kept lines (scan-lines.sql), as scan.sql makes it from the pass.
create or replace temp table scan_groups as
select abs, session_id,
       omg_group(o, keyless, mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
from transcript_scan
group by abs, session_id;
