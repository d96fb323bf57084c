-- The calls that `progress` lines mirror, in one share of the files that hold one (mirrors-wanted.sql):
-- since 2.1.38 Claude Code copies a sub-agent's messages into its parent's file as progress lines
-- (data.message, the sub-agent's record), which the census never counts. A sub-agent's file may be
-- missing while its parent's is not, and then these are the only trace of what it ran.
-- The mirrored content is read as JSON, not typed, so a block of any shape is read as it is (a
-- list for a command, an object for an id); a `data` of another shape has no content to mirror.
-- params: files  the share's files (a lone file twice: the first copy's record numbers are kept)
--         abs    the same files, unescaped, once each, in the same order
insert into transcript_mirrored_calls
with starts as (
    -- A scan numbers its lines across its files, one after the other: a file's lines begin after
    -- those of the files before it.
    select abs, file, n, session_id,
           coalesce(sum(n) over (order by list_position($abs, abs) rows between unbounded preceding and 1 preceding), 0) as start
    from transcript_mirror_files
    where list_contains($abs, abs)
),

lines as (
    select s.file, x.ordinality - s.start as rec, s.n, coalesce(x.sessionId, s.session_id) as session_id,
           x.timestamp ->> '$' as timestamp, x.parentToolUseID ->> '$' as parent_tool_use_id,
           x.data.agentId as agent_id, x.data.message.message.content as content
    from read_json($files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'JSON', parentToolUseID: 'JSON', data: 'STRUCT(agentId VARCHAR, message STRUCT(message STRUCT(content JSON)))'})
         with ordinality as x
    join starts as s on s.abs = x.filename
    where x.type = 'progress' and json_type(x.data.message.message.content) = 'ARRAY'
),

blocks as (
    select file, rec, session_id, timestamp, parent_tool_use_id, agent_id,
           unnest(list_transform(from_json(content, '["JSON"]'), (b, i) -> {'b': b, 'block': i}), recursive := true)
    from lines
    where rec <= n
)

select session_id, b ->> '$.id' as tool_use_id, b ->> '$.name' as name,
       omg_skill_of_call(b ->> '$.name', b ->> '$.input.skill', b ->> '$.input.command') as skill,
       agent_id, parent_tool_use_id, timestamp, file, rec, block,
       omg_path_of_call(b ->> '$.name', b ->> '$.input.file_path', b ->> '$.input.notebook_path') as path,
       omg_command_of_call(b ->> '$.name', b ->> '$.input.command') as command
from blocks
where b ->> '$.type' = 'tool_use';
