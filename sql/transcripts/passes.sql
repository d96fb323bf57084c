-- The transcript passes as table macros, read after macros.sql (whose macros they call) on each
-- connection that scans; temporary, as those are.

-- The passes over the lines (scan-*.sql). read_json types the fields below and leaves the rest of
-- a line unread; a line that is not JSON gives a row of NULLs, like a line with none of the fields
-- (omg_keyless), and such lines are looked at again (keyless.sql). Lean: what census and forgeable
-- read, without a tool_result, a call's input keys, or a line's uuid, subtype, isSidechain and
-- agentId (NULL). Usage: the lean fields and each response's usage (omg_response), for what reads the calls and
-- transcript_messages and no tool_result. Full: everything, each response's usage, a call's input as a MAP (for its key names), and each
-- tool_result block's call id, error flag and content, and toolUseResult.
-- Each pass computes its columns straight from read_json's (no struct of the line is packed to be
-- taken apart again), and its inner select reads a line's first content block once (bench/README.md, scan27).
create or replace temp macro omg_scan_lean(files) as table
select abs, o, type, null::VARCHAR as subtype, sessionId as session_id, null::VARCHAR as uuid,
       ts ->> '$' as timestamp, ver ->> '$' as version, omg_line_mistyped(ts, ver) as mistyped,
       null::BOOLEAN as is_sidechain, null::VARCHAR as agent_id, message.model as model,
       omg_keyless(type, null, sessionId, null, ts, ver, null, null, message) as keyless,
       omg_call1(type, n, b1) as call1,
       omg_calls(type, n, message.content) as calls,
       null as result1,
       null as results
from (
    select filename as abs, ordinality as o, type, sessionId, timestamp as ts, version as ver, message,
           len(message.content) as n, message.content[1] as b1
    from read_json(files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'JSON', version: 'JSON',
                              message: 'STRUCT(model VARCHAR, content STRUCT(type VARCHAR, id VARCHAR, name VARCHAR,
                                  input STRUCT(skill VARCHAR, command VARCHAR, file_path VARCHAR, notebook_path VARCHAR))[])'})
         with ordinality
);

-- The lean pass with each tool_result block's call id, error flag and content, and toolUseResult, as
-- the full pass reads them: for what reads transcript_tool_results but no call's input keys, no line's
-- isSidechain or agentId, and no usage (skills).
create or replace temp macro omg_scan_lean_results(files) as table
select abs, o, type, null::VARCHAR as subtype, sessionId as session_id, null::VARCHAR as uuid,
       ts ->> '$' as timestamp, ver ->> '$' as version, omg_line_mistyped(ts, ver) as mistyped,
       null::BOOLEAN as is_sidechain, null::VARCHAR as agent_id, message.model as model,
       omg_keyless(type, null, sessionId, null, ts, ver, null, null, message) as keyless,
       omg_call1(type, n, b1) as call1,
       omg_calls(type, n, message.content) as calls,
       omg_result1(type, n, b1, toolUseResult) as result1,
       omg_results(type, n, message.content, toolUseResult) as results
from (
    select filename as abs, ordinality as o, type, sessionId, timestamp as ts, version as ver, toolUseResult, message,
           len(message.content) as n, message.content[1] as b1
    from read_json(files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'JSON', version: 'JSON', toolUseResult: 'VARCHAR',
                              message: 'STRUCT(model VARCHAR, content STRUCT(type VARCHAR, id VARCHAR, name VARCHAR,
                                  input STRUCT(skill VARCHAR, command VARCHAR, file_path VARCHAR, notebook_path VARCHAR),
                                  tool_use_id VARCHAR, is_error BOOLEAN, content VARCHAR)[])'})
         with ordinality
);

-- The pass for what reads transcript_messages and no other table but transcript_files (usage):
-- one row per line, its flat typed fields, never its content; responses.sql groups them, and adds
-- a row for each response a line mirrors (`mirror`: its data as JSON, omg_mirror_of); messages.sql
-- reads the responses (is_response). Flat rows cost less than a list of structs collected per group
-- (bench/README.md, usage).
create or replace temp macro omg_scan_responses(files) as table
select abs, o, sessionId as session_id,
       omg_keyless(type, null, sessionId, null, ts, version, isSidechain, agentId, message) as keyless,
       -- Only a response's usage is counted, so only an assistant line's is checked (as omg_response does).
       omg_line_mistyped(ts, version) or coalesce(type = 'assistant' and omg_usage_mistyped(message.usage), false)
       or omg_mirror_mistyped(mirrored, data) as mistyped,
       coalesce(type = 'assistant', false) as is_response,
       -- When and where a response was made (timestamp, cwd, gitBranch): only a response's line's, or a
       -- mirror's, is read (messages.sql), and the rows of other lines are held while transcript_messages is built.
       case when type = 'assistant' or mirrored then ts end ->> '$' as timestamp,
       message.id as message_id,
       requestId as request_id,
       message.model as model,
       unnest(omg_usage_fields(message.usage)),
       coalesce(isSidechain, false) as is_sidechain,
       agentId as agent_id,
       case when type = 'assistant' or mirrored then cwd end as cwd,
       case when type = 'assistant' or mirrored then gitBranch end as git_branch,
       case when mirrored then to_json(data) end as mirror
from (
    select filename as abs, ordinality as o, type, sessionId, timestamp as ts, version, isSidechain, agentId, requestId, cwd,
           gitBranch, message, data, omg_mirrored(type, data.message) as mirrored
    from read_json(files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'JSON', version: 'JSON',
                              isSidechain: 'BOOLEAN', agentId: 'VARCHAR', requestId: 'VARCHAR', cwd: 'VARCHAR', gitBranch: 'VARCHAR',
                              message: 'STRUCT(model VARCHAR, id VARCHAR, usage STRUCT(input_tokens JSON, output_tokens JSON, cache_creation_input_tokens JSON, cache_read_input_tokens JSON, cache_creation JSON, service_tier VARCHAR))',
                              data: 'STRUCT(agentId VARCHAR, message STRUCT(type VARCHAR, timestamp JSON, requestId VARCHAR, message STRUCT(model VARCHAR, id VARCHAR, usage STRUCT(input_tokens JSON, output_tokens JSON, cache_creation_input_tokens JSON, cache_read_input_tokens JSON, cache_creation JSON, service_tier VARCHAR))))'})
         with ordinality
);

create or replace temp macro omg_scan_usage(files) as table
select abs, o, type, null::VARCHAR as subtype, sessionId as session_id, null::VARCHAR as uuid,
       ts ->> '$' as timestamp, ver ->> '$' as version, omg_line_mistyped(ts, ver) as mistyped,
       coalesce(isSidechain, false) as is_sidechain, agentId as agent_id, message.model as model,
       omg_keyless(type, null, sessionId, null, ts, ver, isSidechain, agentId, message) as keyless,
       omg_call1(type, n, b1) as call1,
       omg_calls(type, n, message.content) as calls,
       null as result1,
       null as results,
       omg_response(o, type, mirrored, sessionId, r_ts, r_id, r_model, r_usage, r_request, isSidechain, r_agent, cwd, gitBranch) as response
from (
    select filename as abs, ordinality as o, type, sessionId, timestamp as ts, version as ver, isSidechain, agentId,
           cwd, gitBranch, message, len(message.content) as n, message.content[1] as b1,
           -- A progress line that mirrors a sub-agent's response (omg_mirrored) gives that response's fields.
           omg_mirrored(type, data.message) as mirrored,
           case when mirrored then coalesce(data.message.timestamp, timestamp) else timestamp end as r_ts,
           case when mirrored then data.message.message.id else message.id end as r_id,
           case when mirrored then data.message.message.model else message.model end as r_model,
           case when mirrored then data.message.message.usage else message.usage end as r_usage,
           case when mirrored then data.message.requestId else requestId end as r_request,
           case when mirrored then data.agentId else agentId end as r_agent
    from read_json(files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'JSON', version: 'JSON',
                              isSidechain: 'BOOLEAN', agentId: 'VARCHAR', requestId: 'VARCHAR', cwd: 'VARCHAR', gitBranch: 'VARCHAR',
                              message: 'STRUCT(model VARCHAR, id VARCHAR, usage STRUCT(input_tokens JSON, output_tokens JSON, cache_creation_input_tokens JSON, cache_read_input_tokens JSON, cache_creation JSON, service_tier VARCHAR), content STRUCT(type VARCHAR, id VARCHAR, name VARCHAR,
                                  input STRUCT(skill VARCHAR, command VARCHAR, file_path VARCHAR, notebook_path VARCHAR))[])',
                              data: 'STRUCT(agentId VARCHAR, message STRUCT(type VARCHAR, timestamp JSON, requestId VARCHAR, message STRUCT(model VARCHAR, id VARCHAR, usage STRUCT(input_tokens JSON, output_tokens JSON, cache_creation_input_tokens JSON, cache_read_input_tokens JSON, cache_creation JSON, service_tier VARCHAR))))'})
         with ordinality
);

create or replace temp macro omg_scan_full(files) as table
select abs, o, type, subtype, sessionId as session_id, uuid,
       ts ->> '$' as timestamp, ver ->> '$' as version, omg_line_mistyped(ts, ver) as mistyped,
       coalesce(isSidechain, false) as is_sidechain, agentId as agent_id, message.model as model,
       omg_keyless(type, subtype, sessionId, uuid, ts, ver, isSidechain, agentId, message) as keyless,
       omg_call1_keyed(type, n, b1) as call1,
       omg_calls_keyed(type, n, message.content) as calls,
       omg_result1(type, n, b1, toolUseResult) as result1,
       omg_results(type, n, message.content, toolUseResult) as results,
       -- A response's fields as columns: omg_response's CASE of a struct costs more to build and keep.
       -- Its o, session, timestamp, model, isSidechain and agentId are the line's columns above; a
       -- mirror's response is read after the pass (omg_mirror_response).
       coalesce(type = 'assistant', false) as is_response,
       message.id as message_id, requestId as request_id,
       unnest(omg_usage_fields(message.usage)),
       cwd, gitBranch as git_branch,
       coalesce(type = 'assistant' and omg_usage_mistyped(message.usage), false) or omg_mirror_mistyped(mirrored, data) as usage_mistyped,
       case when mirrored then to_json(data) end as mirror
from (
    select filename as abs, ordinality as o, type, subtype, sessionId, uuid, timestamp as ts, version as ver,
           isSidechain, agentId, toolUseResult, cwd, gitBranch, message,
           requestId, data, omg_mirrored(type, data.message) as mirrored, len(message.content) as n, message.content[1] as b1
    from read_json(files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', subtype: 'VARCHAR', sessionId: 'VARCHAR', uuid: 'VARCHAR', timestamp: 'JSON',
                              version: 'JSON', isSidechain: 'BOOLEAN', agentId: 'VARCHAR', toolUseResult: 'VARCHAR',
                              requestId: 'VARCHAR', cwd: 'VARCHAR', gitBranch: 'VARCHAR',
                              message: 'STRUCT(model VARCHAR, id VARCHAR, usage STRUCT(input_tokens JSON, output_tokens JSON, cache_creation_input_tokens JSON, cache_read_input_tokens JSON, cache_creation JSON, service_tier VARCHAR), content STRUCT(type VARCHAR, id VARCHAR, name VARCHAR,
                                  input MAP(VARCHAR, VARCHAR), tool_use_id VARCHAR, is_error BOOLEAN, content VARCHAR)[])',
                              data: 'STRUCT(agentId VARCHAR, message STRUCT(type VARCHAR, timestamp JSON, requestId VARCHAR, message STRUCT(model VARCHAR, id VARCHAR, usage STRUCT(input_tokens JSON, output_tokens JSON, cache_creation_input_tokens JSON, cache_read_input_tokens JSON, cache_creation JSON, service_tier VARCHAR))))'})
         with ordinality
);

-- The calls of the full pass (every column of transcript_tool_uses: a call's input keys, a line's
-- isSidechain and agentId), without a tool_result or a response: for SQL that reads the calls but
-- no result (scan-calls.sql).
create or replace temp macro omg_scan_calls(files) as table
select abs, o, type, subtype, sessionId as session_id, uuid,
       ts ->> '$' as timestamp, ver ->> '$' as version, omg_line_mistyped(ts, ver) as mistyped,
       coalesce(isSidechain, false) as is_sidechain, agentId as agent_id, message.model as model,
       omg_keyless(type, subtype, sessionId, uuid, ts, ver, isSidechain, agentId, message) as keyless,
       omg_call1_keyed(type, n, b1) as call1,
       omg_calls_keyed(type, n, message.content) as calls,
       null as result1,
       null as results
from (
    select filename as abs, ordinality as o, type, subtype, sessionId, uuid, timestamp as ts, version as ver,
           isSidechain, agentId, message, len(message.content) as n, message.content[1] as b1
    from read_json(files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', subtype: 'VARCHAR', sessionId: 'VARCHAR', uuid: 'VARCHAR', timestamp: 'JSON',
                              version: 'JSON', isSidechain: 'BOOLEAN', agentId: 'VARCHAR',
                              message: 'STRUCT(model VARCHAR, content STRUCT(type VARCHAR, id VARCHAR, name VARCHAR,
                                  input MAP(VARCHAR, VARCHAR))[])'})
         with ordinality
);
