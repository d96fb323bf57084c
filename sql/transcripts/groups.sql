-- scan_groups from the kept lines (scan-lines.sql), as scan.sql makes it from the pass, and the
-- responses messages.sql reads.
create or replace temp table scan_groups as
select i.abs, g.session_id, g.g
from (
    select fid, session_id,
           omg_group(o, keyless, mistyped or usage_mistyped, type, timestamp, version, model,
                     is_sidechain, agent_id, call1, calls, result1, results) as g
    from transcript_scan
    group by fid, session_id
) as g
join transcript_input_files as i using (fid);

-- Each assistant line's response, and each one a progress line mirrors (omg_mirror_response), with
-- the file's number, for messages.sql: a table, so that transcript_scan can be dropped once
-- transcript_lines is built.
create or replace temp table scan_responses as
select fid, o, session_id, timestamp, message_id, request_id, model, input_tokens, output_tokens,
       cache_creation_input_tokens, cache_read_input_tokens, cache_creation_5m_input_tokens,
       cache_creation_1h_input_tokens, service_tier, is_sidechain, agent_id, cwd, git_branch, false as mirrored
from transcript_scan
where is_response
union all by name
select fid, o, session_id, unnest(omg_mirror_response(m, timestamp, cwd, git_branch)), true as mirrored
from (select *, omg_mirror_of(mirror) as m from transcript_scan where mirror is not null);
