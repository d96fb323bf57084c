-- The calls that `progress` lines mirror, in one share of the files that hold one (mirrors-wanted.sql):
-- since 2.1.38 Claude Code copies a sub-agent's messages into its parent's file as progress lines
-- (data.message, the sub-agent's record), which the census never counts. A sub-agent's file may be
-- missing while its parent's is not, and then these are the only trace of what it ran.
-- The blocks are typed as the pass types a call (a value of another type is its JSON text, a
-- block of another shape NULL, never the line), so no tool result or written content is read.
-- params: files  the share's files (a lone file twice: the first copy's record numbers are kept)
insert into transcript_mirrored_calls
with files as (
    -- A scan numbers its lines across its files, one after the other: a file's record numbers
    -- count from its own first line, as this scan reads it (a file that grew since the pass, and
    -- read before another, moves none of the other's).
    select filename as abs, min(ordinality) as first,
           list({'o': ordinality, 'session_id': sessionId, 'timestamp': timestamp ->> '$',
                 'parent_tool_use_id': parentToolUseID ->> '$', 'agent_id': data.agentId,
                 'content': data.message.message.content})
               filter (where type = 'progress' and len(data.message.message.content) > 0) as mirrors
    from read_json($files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'JSON', parentToolUseID: 'JSON',
                              data: 'STRUCT(agentId VARCHAR, message STRUCT(message STRUCT(content STRUCT(type VARCHAR, id VARCHAR,
                                  name VARCHAR, input STRUCT(skill VARCHAR, command VARCHAR, file_path VARCHAR, notebook_path VARCHAR))[])))'})
         with ordinality
    group by filename
),

-- Lines past those the pass read (a live session's, or a lone file's second copy) are not its.
lines as (
    select w.file, l.o - m.first + 1 as rec, coalesce(l.session_id, w.session_id) as session_id, l.timestamp,
           l.parent_tool_use_id, l.agent_id, l.content
    from (select abs, first, unnest(mirrors) as l from files) as m
    join transcript_mirror_files as w using (abs)
    where l.o - m.first + 1 <= w.n
),

blocks as (
    select file, rec, session_id, timestamp, parent_tool_use_id, agent_id,
           unnest(list_transform(content, (b, i) -> {'b': b, 'block': i})) as x
    from lines
)

select session_id, x.b.id as tool_use_id, x.b.name as name,
       omg_skill_of_call(x.b.name, x.b.input.skill, x.b.input.command) as skill,
       agent_id, parent_tool_use_id, timestamp, file, rec, x.block as block,
       omg_path_of_call(x.b.name, x.b.input.file_path, x.b.input.notebook_path) as path,
       omg_command_of_call(x.b.name, x.b.input.command) as command
from blocks
where x.b.type = 'tool_use';
