-- The one pass (scan.sql), for what reads tool_results and a call's input keys, isSidechain or
-- agentId, but no transcript_lines (extract; a probe's registered checks, which may read any column):
-- the full typed fields (omg_scan_full), aggregated as they are read.
-- params: files  the transcript files, absolute paths
select abs, session_id,
       omg_group(o, keyless, mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
from omg_scan_full($files)
group by abs, session_id
