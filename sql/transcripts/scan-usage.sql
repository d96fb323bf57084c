-- The one pass (scan.sql), for what reads transcript_messages and the calls but no
-- transcript_lines and no tool_result (usage alone takes scan-responses.sql): the lean typed fields and each response's usage (omg_scan_usage),
-- aggregated per file and session as they are read, with the responses of each kept as a list
-- for messages.sql (responses-listed.sql).
-- params: files  the transcript files, absolute paths
select abs, session_id,
       omg_group(o, keyless, mistyped or coalesce(response.mistyped, false), type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g,
       list(response) filter (where response is not null) as responses
from omg_scan_usage($files)
group by abs, session_id
