-- scan_groups from the kept lines (scan-lines.sql), as scan.sql makes it from the pass, and the
-- responses messages.sql reads.
create or replace temp table scan_groups as
select i.abs, g.session_id, g.g
from (
    select fid, session_id,
           omg_group(o, keyless, mistyped or usage_mistyped, type, timestamp, version, model, is_sidechain, agent_id, call1, calls, result1, results) as g
    from transcript_scan
    group by fid, session_id
) as g
join transcript_input_files as i using (fid);

-- The columns omg_response gives, in its order, with the file's number, for messages.sql: a table, so
-- that transcript_scan can be dropped once transcript_lines is built.
create or replace temp table scan_responses as
select fid, o, session_id, coalesce(mirror.timestamp, timestamp) as timestamp, message_id, request_id,
       case when mirror is null then model else mirror.model end as model, input_tokens, output_tokens,
       cache_creation_input_tokens, cache_read_input_tokens, cache_creation_5m_input_tokens,
       cache_creation_1h_input_tokens, service_tier, mirror is not null or is_sidechain as is_sidechain,
       case when mirror is null then agent_id else mirror.agent_id end as agent_id, cwd, git_branch, usage_mistyped as mistyped
from transcript_scan
where is_response;
