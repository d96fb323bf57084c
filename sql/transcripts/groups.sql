-- scan_groups from the kept lines (scan-lines.sql), as scan.sql makes it from the pass, with each
-- group's responses (as scan-usage.sql keeps them) for messages.sql.
create or replace temp table scan_groups as
select abs, session_id,
       omg_group(o, keyless, mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g,
       list(response) filter (where response is not null) as responses
from transcript_scan
group by abs, session_id;
