-- The one pass (scan.sql), for what reads tool_results but no call's input keys, isSidechain or
-- agentId (skills): the lean fields and each tool_result (omg_scan_lean_results), aggregated as
-- they are read.
-- params: files  the transcript files, absolute paths
select abs, session_id,
       omg_group(o, keyless, mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
from omg_scan_lean_results($files)
group by abs, session_id
