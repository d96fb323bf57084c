-- The one pass over the transcripts, for what reads no transcript_lines and no tool_result
-- (census, forgeable): DuckDB parses each line once, into the lean typed fields (omg_scan_lean),
-- and the pass aggregates per file and session as it reads (omg_group), so no line is stored. A
-- field of another type gives NULL (a string message.content, for one). WITH ORDINALITY numbers the lines across the files of the
-- scan, one after the other (blank lines skipped), which gives every record number the tables
-- need; it also runs the scan on one thread, so the loader runs one scan per thread, each over its
-- share of the files, into one table (transcripts.ts).
-- params: files  the transcript files, absolute paths
select abs, session_id,
       omg_group(o, keyless, mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
from omg_scan_lean($files)
group by abs, session_id
