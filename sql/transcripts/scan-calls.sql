-- The one pass (scan.sql), for SQL that reads the calls with every column but no tool_result,
-- response or line: the full call fields (omg_scan_calls), aggregated as they are read.
-- params: files  the transcript files, absolute paths
select abs, session_id,
       omg_group(o, keyless, mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
from omg_scan_calls($files)
group by abs, session_id
